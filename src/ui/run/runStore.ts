import { del, get, set } from "idb-keyval";
import type { RunFile } from "./runWorker";

/**
 * The run view's files, kept in this browser (IndexedDB) so a reload reopens them: a dump is the
 * user's own and far too large for a link, which keeps only the settings.
 */
const KEY = "scanlab.run.files";

export async function saveRunFiles(files: RunFile[]): Promise<string | null> {
  try {
    await set(KEY, files);
    return null;
  } catch (thrown) {
    return `The dump could not be kept in this browser (${thrown instanceof Error ? thrown.message : String(thrown)}): a reload will not reopen it`;
  }
}

export async function loadRunFiles(): Promise<RunFile[] | null> {
  try {
    const files = await get<unknown>(KEY);
    return Array.isArray(files) && files.every((f) => typeof f?.name === "string" && f.bytes instanceof Uint8Array)
      ? (files as RunFile[])
      : null;
  } catch {
    return null;
  }
}

export async function forgetRunFiles(): Promise<void> {
  await del(KEY).catch(() => {});
}
