/**
 * Which tab this is, so that each tab keeps its own run: an id kept in sessionStorage, which a
 * reload keeps and another tab does not share (a tab the browser duplicates starts with a copy of
 * it, and so reopens the same run until it opens another).
 */
const TAB_KEY = "scanlab.run.tab";

/** The storage a tab id lives in: sessionStorage in the page, a map in a test. */
export interface TabStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** This tab's id: the kept one, else a new one kept for the next reload (null storage: a new id each time). */
export function tabId(storage: TabStorage | null, newId: () => string): string {
  const kept = safely(() => storage?.getItem(TAB_KEY) ?? null);
  if (kept && /^[\w-]{1,64}$/.test(kept)) return kept;
  const id = newId();
  safely(() => storage?.setItem(TAB_KEY, id));
  return id;
}

/** Where a tab's kept files live in IndexedDB. */
export function runFilesKey(tab: string): string {
  return `scanlab.run.files.${tab}`;
}

/** The key an older Scanlab kept one dump under for every tab: the first tab to reload takes it over. */
export const SHARED_RUN_FILES_KEY = "scanlab.run.files";

/** sessionStorage may be absent or refuse (a sandboxed frame, a full quota): a tab then keeps nothing. */
function safely<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/** The page's own tab id (sessionStorage, crypto.randomUUID). */
export function thisTab(): string {
  const storage = typeof sessionStorage === "undefined" ? null : safely(() => sessionStorage);
  return tabId(storage, () => crypto.randomUUID());
}
