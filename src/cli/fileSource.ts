import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import type { ByteSource } from "../io/tensorFiles/byteSource";

/** A file on disk read by positioned reads: only what the reader asks for is ever in memory. */
export function openFileSource(path: string, name: string): ByteSource & { close(): void } {
  // Non-blocking, so that a named pipe with no writer opens at once (a plain open waits for one
  // forever) and is refused below; the flag does nothing to a regular file's reads.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const info = fstatSync(fd);
  if (info.isDirectory()) {
    closeSync(fd);
    throw new Error("it is a directory");
  }
  // A pipe or a device has no size (`/dev/zero` says 0) and cannot be read by position.
  if (!info.isFile()) {
    closeSync(fd);
    throw new Error("it is not a regular file (a pipe, socket or device): pass - to read standard input");
  }
  return {
    name,
    size: info.size,
    read(offset, length) {
      // Not zero-filled (every byte is read into it, or cut off below) and never from Buffer's shared pool:
      // the caller keeps views of it (readsAreFresh).
      const out = Buffer.allocUnsafeSlow(Math.max(0, Math.min(length, info.size - offset)));
      let done = 0;
      while (done < out.length) {
        const n = readSync(fd, out, done, out.length - done, offset + done);
        if (n === 0) break;
        done += n;
      }
      return done === out.length ? out : out.subarray(0, done);
    },
    readsAreFresh: true,
    readInto(offset, target) {
      let done = 0;
      while (done < target.length) {
        const n = readSync(fd, target, done, target.length - done, offset + done);
        if (n === 0) break;
        done += n;
      }
      return done;
    },
    close: () => closeSync(fd),
  };
}

/** A directory's entries (a link followed to what it names); null when the path is no directory or cannot be read as one. */
export function listDirectory(path: string): { name: string; directory: boolean }[] | null {
  try {
    if (!statSync(path).isDirectory()) return null;
  } catch {
    return null;
  }
  return readdirSync(path, { withFileTypes: true }).map((entry) => {
    let directory = entry.isDirectory();
    if (entry.isSymbolicLink()) {
      try {
        directory = statSync(`${path}/${entry.name}`).isDirectory();
      } catch {
        directory = false;
      }
    }
    return { name: entry.name, directory };
  });
}
