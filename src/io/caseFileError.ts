import { printable } from "./printable";

/**
 * A case file that could not be read: the message names the source and every field at fault.
 * Everything taken from the file (names, fields, excerpts) is escaped with `printable`, so the
 * message can go to a terminal as it is. parseCaseFile throws nothing else for any input.
 */
export class CaseFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CaseFileError";
  }
}

/** Largest case file read, from a file or standard input: 256 MiB (the public file is 1.7 MB). */
export const MAX_CASE_FILE_BYTES = 256 * 2 ** 20;

export function formatBytes(bytes: number): string {
  return bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${bytes} bytes`;
}

/** The error for input above MAX_CASE_FILE_BYTES; `size` is undefined when only "more" is known. */
export function tooLargeError(source: string, size?: number): CaseFileError {
  const what = size === undefined ? "is larger than" : `is ${formatBytes(size)}, above`;
  return new CaseFileError(
    `${printable(source)} ${what} the ${MAX_CASE_FILE_BYTES / 2 ** 20} MiB limit of a case file`,
  );
}
