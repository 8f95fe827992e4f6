import { del, get, set } from "idb-keyval";
import type { RunFile } from "./runWorker";

/**
 * The run view's files, kept in this browser (IndexedDB) so a reload reopens them: a dump is the
 * user's own and far too large for a link, which keeps only the settings.
 *
 * They are kept as the Blobs (Files) the user chose, not as their bytes: IndexedDB clones a Blob by
 * reference and copies its data off the page's thread, where a 16 MB Uint8Array was cloned in the
 * page's task that delivered the replay (about 50 ms of CPU on a 2-core machine).
 */
const KEY = "scanlab.run.files";

interface KeptFile {
  name: string;
  blob: Blob;
}

export async function saveRunFiles(files: readonly File[]): Promise<string | null> {
  try {
    await set(
      KEY,
      files.map((file): KeptFile => ({ name: file.name, blob: file })),
    );
    return null;
  } catch (thrown) {
    return `The dump could not be kept in this browser (${thrown instanceof Error ? thrown.message : String(thrown)}): a reload will not reopen it`;
  }
}

/** The kept files, read back; also those an older Scanlab kept as bytes (`{ name, bytes }`). */
export async function loadRunFiles(): Promise<RunFile[] | null> {
  try {
    const files = await get<unknown>(KEY);
    if (!Array.isArray(files) || files.length === 0) return null;
    const read: RunFile[] = [];
    for (const f of files) {
      if (typeof f?.name !== "string") return null;
      if (f.bytes instanceof Uint8Array) read.push({ name: f.name, blob: new Blob([f.bytes]) });
      else if (f.blob instanceof Blob) read.push({ name: f.name, blob: f.blob });
      else return null;
    }
    return read;
  } catch {
    return null;
  }
}

export async function forgetRunFiles(): Promise<void> {
  await del(KEY).catch(() => {});
}
