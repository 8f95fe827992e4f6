import { CaseFileError, MAX_CASE_FILE_BYTES } from "../io/caseFileError";
import { printable, printableLines } from "../io/printable";
import type { ByteSource } from "../io/tensorFiles/byteSource";
import { parseCliArgs, UsageError } from "./args";
import { COMMANDS_USAGE, usageFor, usageOf } from "./commandsUsage";
import { runCpLayout } from "./cpLayoutReport";
import { type DirEntry, DumpFileError, runDump } from "./dumpCommand";
import { runDumpRun } from "./dumpRun";
import { EngineStartError } from "./engineStartError";
import { listDirectory, openFileSource } from "./fileSource";
import { jsonText } from "./jsonText";
import { readBounded, readFileBounded } from "./readInput";

/** Where the command reads and writes, so tests can run it in-process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The bytes of a file or of standard input; an InputTooLargeError past MAX_CASE_FILE_BYTES. */
  readFile(path: string): Promise<Uint8Array>;
  readStdin(): Promise<Uint8Array>;
  /** Resolves once what was written has left (a pipe buffers every write it cannot pass on at once). */
  drained?(): Promise<void>;
  /** A file opened for positioned reads (scanlab dump): nothing is read until a reader asks. */
  openFile(path: string, name: string): ByteSource & { close(): void };
  /** Writes a text file (scanlab dump --export-cases). */
  writeFile(path: string, text: string): Promise<void>;
  /** A directory's entries, null when the path is no directory (scanlab dump DIR). */
  listDir(path: string): DirEntry[] | null;
}

export const nodeIO: CliIO = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  readFile: (path) => readFileBounded(path, MAX_CASE_FILE_BYTES),
  readStdin: () => readBounded(process.stdin, MAX_CASE_FILE_BYTES),
  drained: () =>
    process.stdout.writableNeedDrain
      ? new Promise((resolve) => process.stdout.once("drain", resolve))
      : Promise.resolve(),
  openFile: openFileSource,
  listDir: listDirectory,
  writeFile: async (path, text) => {
    const { writeFile } = await import("node:fs/promises");
    await writeFile(path, text);
  },
};

const VERSION = "0.1.0";

/**
 * Runs `scanlab` with the arguments after the program name; resolves to the exit status and never
 * rejects: whatever goes wrong ends as one line on standard error and status 2, never a stack trace.
 */
export async function main(argv: string[], io: CliIO = nodeIO): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      // A command's own usage (the list when none is named): every usage at once would bury the line that matters.
      io.stderr(`scanlab: ${printable(error.message)}\n\n${usageFor(argv)}`);
    } else if (error instanceof CaseFileError || error instanceof EngineStartError || error instanceof DumpFileError) {
      // Parts taken from the file are escaped where the message is built; this keeps its lines.
      io.stderr(`scanlab: ${printableLines(error.message)}`);
    } else {
      // A bug, not bad input: say so plainly, with the error's own words, so it gets reported.
      const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      io.stderr(`scanlab: internal error (a bug in scanlab, please report it): ${printable(what)}`);
    }
    return 2;
  }
}

async function run(argv: string[], io: CliIO): Promise<number> {
  const args = parseCliArgs(argv);
  if (args.command === "missing") {
    io.stderr(`scanlab: missing command\n\n${COMMANDS_USAGE}`);
    return 2;
  }
  if (args.command === "help-topic") {
    const usage = args.topic === null ? COMMANDS_USAGE : usageOf(args.topic);
    if (usage === undefined)
      throw new UsageError(
        `help: unknown command ${JSON.stringify(args.topic)}; the commands are check, cp-layout, dump`,
      );
    io.stdout(usage);
    return 0;
  }
  if (args.command === "help") {
    io.stdout(args.usage ?? COMMANDS_USAGE);
    return 0;
  }
  if (args.command === "version") {
    io.stdout(`scanlab ${VERSION}`);
    return 0;
  }
  if (args.command === "cp-layout") return runCpLayout(args, io.stdout);
  if (args.command === "dump") {
    const dumpIo = { ...io, json: jsonText };
    // One file keeps the single-dump report; a directory or several paths are a run, step by step.
    const run = args.paths.length > 1 || (args.file !== "-" && io.listDir(args.file) !== null);
    return run ? runDumpRun(args, dumpIo) : runDump(args, dumpIo);
  }
  // Loaded only for `check`: the case schema (zod) cost every other command a tenth of a second to load.
  const { check } = await import("./checkCommand");
  return check(args, io);
}

export { jsonText };
