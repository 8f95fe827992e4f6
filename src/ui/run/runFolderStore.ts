import { del, get, set } from "idb-keyval";
import type { DirectoryHandle } from "./runFolderFiles";
import { thisTab } from "./runTab";

/**
 * The run folder chosen with Chromium's showDirectoryPicker, kept in this browser (IndexedDB holds
 * the handle, not the files), so a reload reopens the run after one permission prompt instead of
 * copying gigabytes into the browser. Where the API is missing, nothing is kept and the page says
 * that a reload needs the folder again.
 */
/** Each tab keeps its own folder, as it keeps its own dump (runTab.ts). */
const key = () => `scanlab.run.folder.${thisTab()}`;

export function canKeepFolders(): boolean {
  return typeof window !== "undefined" && "showDirectoryPicker" in window;
}

/** Chromium's folder picker; null when the user closes it. */
export async function pickFolder(): Promise<DirectoryHandle | null> {
  const chromium = window as unknown as { showDirectoryPicker(options: { mode: "read" }): Promise<DirectoryHandle> };
  try {
    return await chromium.showDirectoryPicker({ mode: "read" });
  } catch (thrown) {
    if (thrown instanceof DOMException && thrown.name === "AbortError") return null;
    throw thrown;
  }
}

/** Keeps the handle; a sentence when the browser refuses (the run still opens, a reload will not reopen it). */
export async function keepFolder(handle: DirectoryHandle): Promise<string | null> {
  try {
    await set(key(), handle);
    return null;
  } catch (thrown) {
    return `The run folder could not be kept in this browser (${thrown instanceof Error ? thrown.message : String(thrown)}): a reload will need the folder again`;
  }
}

export async function keptFolder(): Promise<DirectoryHandle | null> {
  try {
    const handle = await get<unknown>(key());
    return handle && typeof handle === "object" && (handle as DirectoryHandle).kind === "directory"
      ? (handle as DirectoryHandle)
      : null;
  } catch {
    return null;
  }
}

/**
 * Read permission on a kept folder: asked of the browser only on the user's click (a prompt needs
 * one); `ask` false only says whether it is already granted.
 */
export async function folderPermission(handle: DirectoryHandle, ask: boolean): Promise<boolean> {
  const state = await handle.queryPermission?.({ mode: "read" });
  if (state === "granted") return true;
  if (!ask || !handle.requestPermission) return false;
  return (await handle.requestPermission({ mode: "read" })) === "granted";
}

export async function forgetFolder(): Promise<void> {
  await del(key()).catch(() => {});
}
