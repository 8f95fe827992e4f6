/** The page's local storage, or null where the browser refuses it (a sandboxed frame, storage disabled). */
export function pageStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
