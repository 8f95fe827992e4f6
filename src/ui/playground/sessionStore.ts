import { del, get, set } from "idb-keyval";
import { IN_INDEXED_DB } from "../../compute/playground/persistence";
import { STORAGE_KEY } from "../../io/shareLink";

/**
 * The saved session, so that a reload brings back what the user had. Local storage is read
 * synchronously at startup, so the page opens on the session at once, but it holds a few MB at
 * most and every write blocks the main thread; a larger session (an imported 64 × 65536 batch is
 * tens of MB of text) goes to IndexedDB, written asynchronously, with a marker left in local storage.
 */
export const LOCAL_SESSION_CHARS = 200_000;

/** Saves the encoded session; resolves to why it could not be saved, or null. */
export async function saveSession(text: string): Promise<string | null> {
  try {
    if (text.length <= LOCAL_SESSION_CHARS) {
      window.localStorage.setItem(STORAGE_KEY, text);
      await del(STORAGE_KEY).catch(() => {});
    } else {
      await set(STORAGE_KEY, text);
      window.localStorage.setItem(STORAGE_KEY, IN_INDEXED_DB);
    }
    return null;
  } catch (thrown) {
    return `Saved session: could not be saved (${thrown instanceof Error ? thrown.message : String(thrown)}); a reload will not bring this batch back, a case file keeps it`;
  }
}

/** The session text kept in IndexedDB (local storage said so), or why it cannot be read. */
export async function loadIndexedSession(): Promise<{ text: string } | { error: string }> {
  try {
    const text = await get<unknown>(STORAGE_KEY);
    if (typeof text === "string") return { text };
    return { error: "Saved session: this browser no longer holds it (its site data was cleared?)" };
  } catch (thrown) {
    return {
      error: `Saved session: could not be read (${thrown instanceof Error ? thrown.message : String(thrown)})`,
    };
  }
}
