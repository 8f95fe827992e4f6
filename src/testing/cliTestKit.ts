import { spawn } from "node:child_process";
import { type CliIO, main } from "../cli/main";
import { bytesSource } from "../io/tensorFiles/byteSource";

/** Test helpers: the command in-process against in-memory files, and the real binary as a child process. */

const bytesOf = (text: string | Uint8Array) => (typeof text === "string" ? new TextEncoder().encode(text) : text);

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `scanlab` in-process; `io` overrides parts of the in-memory IO (e.g. a stdout that throws). */
export async function scanlab(
  argv: string[],
  files: Record<string, string | Uint8Array> = {},
  stdin: string | Uint8Array = "",
  io: Partial<CliIO> = {},
): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await main(argv, {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readFile: async (path) => {
      if (path in files) return bytesOf(files[path]);
      throw new Error(`ENOENT: no such file or directory, open '${path}'`);
    },
    readStdin: async () => bytesOf(stdin),
    openFile: (path, name) => {
      if (!(path in files)) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      // Closed twice is an error, as a file descriptor's second close is (EBADF).
      let open = true;
      const close = () => {
        if (!open) throw new Error("EBADF: bad file descriptor, close");
        open = false;
      };
      return { ...bytesSource(bytesOf(files[path]), name), close };
    },
    // A directory is any prefix of the files' paths that ends at a "/".
    listDir: (path) => listInMemory(Object.keys(files), path),
    // Written files land in `files`, where the test can read them back.
    writeFile: async (path, text) => {
      files[path] = text;
    },
    ...io,
  });
  return { status, stdout: out.join("\n"), stderr: err.join("\n") };
}

function listInMemory(paths: string[], dir: string): { name: string; directory: boolean }[] | null {
  const prefix = `${dir.replace(/\/+$/, "")}/`;
  const entries = new Map<string, boolean>();
  for (const path of paths) {
    if (!path.startsWith(prefix)) continue;
    const [name, ...below] = path.slice(prefix.length).split("/");
    entries.set(name, (entries.get(name) ?? false) || below.length > 0);
  }
  return entries.size > 0 ? [...entries].map(([name, directory]) => ({ name, directory })) : null;
}

export const lastLine = (text: string) => text.trimEnd().split("\n").at(-1);

const bin = new URL("../../bin/scanlab.mjs", import.meta.url).pathname;

/**
 * Runs bin/scanlab.mjs as `npx scanlab` does. With `endlessStdin` it writes zeros to standard input
 * for as long as the command reads them, like `cat /dev/zero | scanlab check -`.
 */
export function runBin(args: string[], options: { endlessStdin?: boolean } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--no-concurrent-recompilation", bin, ...args], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    // Once the command stops reading, writes fail with EPIPE: that is the point, not an error.
    child.stdin.on("error", () => {});
    if (options.endlessStdin) {
      const zeros = Buffer.alloc(2 ** 20);
      const pump = () => {
        while (!child.stdin.destroyed && child.stdin.write(zeros)) {}
      };
      child.stdin.on("drain", pump);
      pump();
    } else {
      child.stdin.end();
    }
    child.on("close", (status) => {
      child.stdin.destroy();
      resolve({ status, stdout, stderr });
    });
  });
}
