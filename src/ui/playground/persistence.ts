import type { PlaygroundState } from "../../io/playgroundState";
import { DEFAULT_PLAYGROUND_STATE } from "../../io/presets";
import {
  decodeState,
  PRESET_PARAMS,
  READABLE_PARAMS,
  SHARE_PARAM,
  STORAGE_KEY,
  stateFromSearch,
} from "../../io/shareLink";

/**
 * Where the page's first state comes from: the link (`?s=`) wins over the saved session, which wins
 * over the built-in example. Small texts are decoded at once; a large one (a hand-drawn 16 × 8192
 * batch takes seconds to decompress) is handed back as `pending`, to be decoded in the codec worker
 * while the example shows.
 */
export interface Startup {
  state: PlaygroundState;
  /** Why the link or the saved session could not be used (the page says so, and keeps going). */
  error: string | null;
  /** Address parameters that were ignored, each with its reason. */
  notices: string[];
  pending: { text: string; source: string } | null;
}

/** Texts up to this size decode on the main thread at startup (well under 100 ms). */
export const SYNC_DECODE_CHARS = 100_000;
/** Longest `?s=` written into the address; Chromium refuses URLs past 2 MB. */
export const MAX_LINK_CHARS = 1_500_000;

export function startupState(search: string, storage: Pick<Storage, "getItem"> | null): Startup {
  let stored: string | null = null;
  let error: string | null = null;
  try {
    stored = storage?.getItem(STORAGE_KEY) ?? null;
  } catch (thrown) {
    error = `Saved session: could not be read (${thrown instanceof Error ? thrown.message : String(thrown)})`;
  }
  let fallback = DEFAULT_PLAYGROUND_STATE;
  let pending: Startup["pending"] = null;
  if (stored !== null && stored.length > SYNC_DECODE_CHARS) pending = { text: stored, source: "Saved session" };
  else if (stored !== null) {
    const decoded = decodeState(stored, "Saved session");
    if (decoded.ok) fallback = decoded.state;
    else error = decoded.error.message;
  }
  const link = new URLSearchParams(search).get(SHARE_PARAM);
  if (link !== null && link.length > SYNC_DECODE_CHARS) {
    return { state: fallback, error, notices: [], pending: { text: link, source: "Shared link" } };
  }
  const fromSearch = stateFromSearch(search, fallback);
  if (fromSearch.fromLink) pending = null;
  return {
    state: fromSearch.state,
    error: fromSearch.error?.message ?? error,
    notices: fromSearch.problems.map((problem) => problem.message),
    pending,
  };
}

/**
 * The address with the state's encoded text in `s`: readable overrides (`gamma=…`) are dropped
 * (the state now holds their values), other parameters kept. Null `encoded` removes `s`.
 */
export function searchWith(encoded: string | null, previousSearch: string): string {
  const params = new URLSearchParams(previousSearch);
  for (const param of [...Object.keys(READABLE_PARAMS), ...PRESET_PARAMS]) params.delete(param);
  if (encoded === null) params.delete(SHARE_PARAM);
  else params.set(SHARE_PARAM, encoded);
  const text = params.toString();
  return text ? `?${text}` : "";
}
