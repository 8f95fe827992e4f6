import { del, get, set } from "idb-keyval";
import type { RunFile } from "../../compute/run/runWorker";
import { runFilesKey, SHARED_RUN_FILES_KEY, thisTab } from "./runTab";

/**
 * The run view's files, kept in this browser (IndexedDB) so a reload reopens them, each tab its own
 * (runTab.ts): a dump is the user's own and far too large for a link, which keeps only the settings.
 *
 * They are kept as the Blobs (Files) the user chose, not as their bytes: IndexedDB clones a Blob by
 * reference and copies its data off the page's thread, where a 16 MB Uint8Array was cloned in the
 * page's task that delivered the replay (about 50 ms of CPU on a 2-core machine). Chromium keeps such
 * a File as a reference to the file on disk: once the file is deleted or changed, reading it throws
 * (NotFoundError, NotReadableError), and the view says so by the file's name.
 */

interface KeptFile {
  name: string;
  blob: Blob;
}

/** What a tab finds kept when it loads. */
export type KeptRun =
  | { kind: "none" }
  | { kind: "files"; files: RunFile[] }
  | { kind: "unreadable"; names: string[]; message: string };

export async function saveRunFiles(files: readonly File[], tab = thisTab()): Promise<string | null> {
  try {
    await set(
      runFilesKey(tab),
      files.map((file): KeptFile => ({ name: file.name, blob: file })),
    );
    return null;
  } catch (thrown) {
    return `The dump could not be kept in this browser (${thrown instanceof Error ? thrown.message : String(thrown)}): a reload will not reopen it`;
  }
}

/**
 * The tab's kept files, read back (a tab with none takes over the one dump an older Scanlab kept for
 * every tab), each checked readable: a kept file that can no longer be read is named, not dropped.
 */
export async function loadRunFiles(tab = thisTab()): Promise<KeptRun> {
  let kept: RunFile[] | null;
  try {
    kept = keptFiles(await get<unknown>(runFilesKey(tab)));
    if (!kept) {
      kept = keptFiles(await get<unknown>(SHARED_RUN_FILES_KEY));
      if (kept) {
        await set(
          runFilesKey(tab),
          kept.map((f): KeptFile => ({ name: f.name, blob: f.blob })),
        );
        await del(SHARED_RUN_FILES_KEY);
      }
    }
  } catch {
    return { kind: "none" };
  }
  if (!kept) return { kind: "none" };
  const unreadable: { name: string; error: unknown }[] = [];
  for (const file of kept) {
    const error = await readError(file.blob);
    if (error !== null) unreadable.push({ name: file.name, error });
  }
  if (unreadable.length === 0) return { kind: "files", files: kept };
  const names = unreadable.map((u) => u.name);
  return { kind: "unreadable", names, message: unreadableMessage(names, unreadable[0].error) };
}

/** The files in a kept value; also those an older Scanlab kept as bytes (`{ name, bytes }`); null: nothing usable. */
export function keptFiles(value: unknown): RunFile[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const read: RunFile[] = [];
  for (const f of value) {
    if (typeof f?.name !== "string") return null;
    if (f.bytes instanceof Uint8Array) read.push({ name: f.name, blob: new Blob([f.bytes]) });
    else if (f.blob instanceof Blob) read.push({ name: f.name, blob: f.blob });
    else return null;
  }
  return read;
}

/** What reading a kept file's first byte throws (null: it reads). */
async function readError(blob: Blob): Promise<unknown> {
  try {
    await blob.slice(0, 1).arrayBuffer();
    return null;
  } catch (thrown) {
    return thrown;
  }
}

/** The notice for kept files that no longer read: their names, why, and what to do. */
export function unreadableMessage(names: readonly string[], error: unknown): string {
  const name = error instanceof Error || error instanceof DOMException ? error.name : "";
  const why =
    name === "NotFoundError"
      ? "it is no longer where it was chosen: deleted or moved"
      : name === "NotReadableError"
        ? "it changed on disk since it was chosen"
        : `reading it failed: ${error instanceof Error ? error.message : String(error)}`;
  const files = names.join(" and ");
  return `${files}, kept in this tab from your last visit, can no longer be read (${why}). This browser keeps a reference to the file you chose, not a copy: choose ${names.length === 1 ? "it" : "them"} again.`;
}
