import type { RunFile } from "../../compute/run/runWorker";
import type { UnusedFile } from "../../io/slimeDump";

/**
 * A run folder's files as the page gets them, by its three doors: the folder input (every file
 * below, with `webkitRelativePath`), a folder dropped (walked through `webkitGetAsEntry`), and
 * Chromium's directory handle. Each file is named by its path from the folder (`run/train_data/3.pt`),
 * which the run's plan pairs by; only the folder's own files and those of its `train_data/` and
 * `rollout_data/` are read, as `scanlab dump DIR` does, and everything else is named, not dropped.
 */

export interface RunFolderFiles {
  /** The folder's name (the first part of every path). */
  folder: string;
  files: RunFile[];
  /** Files and folders left before the plan, with why. */
  unused: UnusedFile[];
}

const RUN_FOLDERS = new Set(["train_data", "rollout_data"]);
const OTHER_FOLDER = "in a folder other than the run's train_data/ and rollout_data/: not read";

/** Whether a path below the folder (`run/x/y.pt`) lies where a run's dumps do. */
export function inRunFolders(path: string): boolean {
  const parts = path.split("/");
  return parts.length <= 2 || (parts.length === 3 && RUN_FOLDERS.has(parts[1]));
}

/** The folder input's files: every file below the folder, each path from `webkitRelativePath`. */
export function filesFromInput(list: FileList | readonly File[]): RunFolderFiles {
  const files: RunFile[] = [];
  const unused: UnusedFile[] = [];
  let folder = "";
  for (const file of Array.from(list)) {
    const path = file.webkitRelativePath || file.name;
    folder ||= path.split("/")[0];
    if (inRunFolders(path)) files.push({ name: path, blob: file });
    else unused.push({ path, why: OTHER_FOLDER });
  }
  return { folder, files, unused };
}

/** A dropped folder, walked from its entry (take the entries in the drop event itself: they expire after it). */
export async function filesFromEntry(root: FileSystemDirectoryEntry): Promise<RunFolderFiles> {
  const files: RunFile[] = [];
  const unused: UnusedFile[] = [];
  const walk = async (dir: FileSystemDirectoryEntry, path: string, depth: number) => {
    for (const entry of await allEntries(dir)) {
      const below = `${path}/${entry.name}`;
      if (entry.isFile) {
        const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
        files.push({ name: below, blob: file });
      } else if (depth === 0 && RUN_FOLDERS.has(entry.name)) {
        await walk(entry as FileSystemDirectoryEntry, below, 1);
      } else {
        unused.push({ path: `${below}/`, why: OTHER_FOLDER });
      }
    }
  };
  await walk(root, root.name, 0);
  return { folder: root.name, files, unused };
}

/** readEntries answers in batches (100 in Chromium) until it answers none. */
async function allEntries(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

/** What this page needs of Chromium's FileSystemDirectoryHandle (the DOM types in use lack its iteration). */
export interface DirectoryHandle {
  kind: "directory";
  name: string;
  values(): AsyncIterable<{ kind: "file" | "directory"; name: string; getFile?(): Promise<File> }>;
  queryPermission?(options: { mode: "read" }): Promise<PermissionState>;
  requestPermission?(options: { mode: "read" }): Promise<PermissionState>;
}

/** A folder chosen with showDirectoryPicker (or kept from before), read through its handle. */
export async function filesFromHandle(root: DirectoryHandle): Promise<RunFolderFiles> {
  const files: RunFile[] = [];
  const unused: UnusedFile[] = [];
  const walk = async (dir: DirectoryHandle, path: string, depth: number) => {
    for await (const entry of dir.values()) {
      const below = `${path}/${entry.name}`;
      if (entry.kind === "file" && entry.getFile) files.push({ name: below, blob: await entry.getFile() });
      else if (depth === 0 && RUN_FOLDERS.has(entry.name)) await walk(entry as unknown as DirectoryHandle, below, 1);
      else unused.push({ path: `${below}/`, why: OTHER_FOLDER });
    }
  };
  await walk(root, root.name, 0);
  return { folder: root.name, files, unused };
}
