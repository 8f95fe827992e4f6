/**
 * Why a file, a link or a stored session could not be read. `where` names the place at fault (a
 * field such as `gamma`, `row 3, column 17`, `byte 8`, `header field descr`); `message` is the
 * whole sentence to show, starting with the source when there is one. Every parser in io returns
 * one of these instead of throwing, so the page can show it and keep what the user had.
 */
export class IoError extends Error {
  readonly where: string;
  readonly source: string;

  constructor(where: string, detail: string, source = "") {
    super([source, where, detail].filter(Boolean).join(": "));
    this.name = "IoError";
    this.where = where;
    this.source = source;
  }
}

/** Largest file the importers read (CSV, .npy, case files): 64 MiB. */
export const MAX_IMPORT_BYTES = 64 * 2 ** 20;

/** Refuses a file above MAX_IMPORT_BYTES before reading it. */
export function checkFileSize(bytes: number, source: string): IoError | undefined {
  if (bytes <= MAX_IMPORT_BYTES) return undefined;
  const mib = (bytes / 2 ** 20).toFixed(1);
  return new IoError("", `the file is ${mib} MiB, above the import limit of ${MAX_IMPORT_BYTES / 2 ** 20} MiB`, source);
}

/** The message of anything thrown by code this module called, for the last-resort guard. */
export function describeThrown(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

/** What an importer returns: the value with notes worth showing (e.g. "header row skipped"), or why it failed. */
export type IoResult<T> = { ok: true; value: T; notes: string[] } | { ok: false; error: IoError };

export function success<T>(value: T, notes: string[] = []): IoResult<T> {
  return { ok: true, value, notes };
}

export function failure<T>(error: IoError): IoResult<T> {
  return { ok: false, error };
}
