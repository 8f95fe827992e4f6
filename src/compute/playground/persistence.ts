import type { PlaygroundState } from "../../io/playgroundState";
import { DEFAULT_PLAYGROUND_STATE, FIRST_VISIT_STATE } from "../../io/presets";
import {
  addressHasState,
  decodeState,
  linkText,
  STORAGE_KEY,
  searchBeside,
  stateFragment,
  stateFromSearch,
} from "../../io/shareLink";

/** What local storage holds while the session itself is in IndexedDB (sessionStore writes it). */
export const IN_INDEXED_DB = "scanlab:indexeddb";

/**
 * Where the page's first state comes from: the link (`#s=`, or `?s=` in older links) wins over the
 * saved session, which wins over the built-in example. The example is FIRST_VISIT_STATE on a bare
 * address (no session, or one that cannot be read); readable parameters (`?gamma=0.9`, `?backend=wasm`) start from DEFAULT_PLAYGROUND_STATE,
 * the state scripts have always written them against. A small text is decoded at once; a large one
 * (a hand-drawn 16 × 8192 batch takes seconds to decompress), or a short one that unpacks into many
 * numbers, is handed back as `pending`, to be decoded in the codec worker while the example shows.
 */
export interface Startup {
  state: PlaygroundState;
  /** Why the link or the saved session could not be used (the page says so, and keeps going). */
  error: string | null;
  /** Address parameters that were ignored, each with its reason. */
  notices: string[];
  /** A text to decode in the worker; `text` null: the saved session, to be read from IndexedDB first. */
  pending: { text: string | null; source: string } | null;
  /**
   * The saved session a link replaces, kept one Undo away (the session is the user's: a batch they
   * imported must survive opening someone's link): decoded here, or a text to decode in the worker
   * (`text` null: in IndexedDB). Null when the link is the session itself (a reload) or there is none.
   */
  replaced: { state: PlaygroundState } | { text: string | null } | null;
}

/** Texts up to this size decode on the main thread at startup (well under 100 ms)… */
export const SYNC_DECODE_CHARS = 100_000;
/** …when they unpack into at most this many lane values; more go to the worker. */
export const SYNC_DECODE_NUMBERS = 100_000;
/** Longest `#s=` written into the address; Chromium refuses URLs past 2 MB. */
export const MAX_LINK_CHARS = 1_500_000;
/** A link longer than this is awkward to paste (chat and mail clients cut or wrap it). */
export const LONG_LINK_CHARS = 8_192;

export function startupState(
  search: string,
  storage: { getItem(key: string): string | null } | null,
  hash = "",
): Startup {
  let stored: string | null = null;
  let error: string | null = null;
  try {
    stored = storage?.getItem(STORAGE_KEY) ?? null;
  } catch (thrown) {
    error = `Saved session: could not be read (${thrown instanceof Error ? thrown.message : String(thrown)})`;
  }
  let fallback = addressHasState(search, hash) ? DEFAULT_PLAYGROUND_STATE : FIRST_VISIT_STATE;
  let pending: Startup["pending"] = null;
  /** The saved session, when it reads; or the text to read it from later (null: IndexedDB). */
  let session: Startup["replaced"] = null;
  if (stored === IN_INDEXED_DB) {
    pending = { text: null, source: "Saved session" };
    session = { text: null };
  } else if (stored !== null) {
    const decoded =
      stored.length <= SYNC_DECODE_CHARS ? decodeState(stored, "Saved session", SYNC_DECODE_NUMBERS) : null;
    if (decoded?.ok) {
      fallback = decoded.state;
      session = { state: decoded.state };
    } else if (decoded && !decoded.overBudget) error = decoded.error.message;
    else {
      pending = { text: stored, source: "Saved session" };
      session = { text: stored };
    }
  }
  const link = linkText(search, hash);
  // A reload's address carries the session itself: then the link replaces nothing.
  if (link !== null && link === stored) session = null;
  const fromSearch =
    link === null || link.length <= SYNC_DECODE_CHARS
      ? stateFromSearch(search, fallback, hash, SYNC_DECODE_NUMBERS)
      : null;
  if (fromSearch === null || fromSearch.overBudget) {
    // The link is decoded in the worker over the session, shown meanwhile: that decode is an
    // undoable edit, so only a session still to be read is kept behind it.
    const replaced = session !== null && "text" in session ? session : null;
    return { state: fallback, error, notices: [], pending: { text: link ?? "", source: "Shared link" }, replaced };
  }
  if (fromSearch.fromLink) pending = null;
  return {
    state: fromSearch.state,
    error: fromSearch.error?.message ?? error,
    notices: fromSearch.problems.map((problem) => problem.message),
    pending,
    replaced: fromSearch.fromLink ? session : null,
  };
}

/**
 * The address with the state's encoded text in the fragment (`#s=`): readable overrides (`gamma=…`)
 * and an old `?s=` are dropped from the query (the state now holds their values), other parameters
 * kept. Null `encoded` leaves the fragment empty.
 */
export function addressWith(encoded: string | null, previousSearch: string): { search: string; hash: string } {
  return { search: searchBeside(previousSearch), hash: encoded === null ? "" : stateFragment(encoded) };
}

/** How a link of this many characters fares: fine to paste, awkward, or more than a browser opens. */
export function linkSize(chars: number): "fits" | "long" | "too large" {
  return chars > MAX_LINK_CHARS ? "too large" : chars > LONG_LINK_CHARS ? "long" : "fits";
}

/** `12.3 KB`, `1.6 MB`: a link's length as a person reads it (one character is one byte). */
export function sizeText(chars: number): string {
  return chars >= 1e6 ? `${(chars / 1e6).toFixed(1)} MB` : `${(chars / 1e3).toFixed(1)} KB`;
}
