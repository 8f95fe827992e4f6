import { z } from "zod";
import { BACKEND_REQUESTS, type BackendRequest } from "../names/backends";
import { STRATEGIES, type Strategy } from "../names/strategies";

/**
 * The page's settings that live in the URL (`?view=conformance&backend=webgpu&strategy=chunked`),
 * as one typed table. A value the page does not know is reported and replaced by the default:
 * a bad link never crashes the page.
 */
export const VIEWS = ["home", "conformance", "player", "bench", "run", "glossary"] as const;
export type View = (typeof VIEWS)[number];

export interface UrlState {
  view: View;
  backend: BackendRequest;
  strategy: Strategy;
}

export const DEFAULT_URL_STATE: UrlState = { view: "home", backend: "auto", strategy: "chunked" };

const FIELDS = {
  view: z.enum(VIEWS),
  backend: z.enum(BACKEND_REQUESTS),
  strategy: z.enum(STRATEGIES),
} as const;

type Key = keyof typeof FIELDS;
const KEYS = Object.keys(FIELDS) as Key[];

export interface ParsedUrlState {
  state: UrlState;
  /** One line per parameter that was ignored, naming the value and what is accepted. */
  problems: string[];
}

/**
 * Reads the settings from a query string (`location.search`); unknown parameters are left alone.
 * A parameter given more than once is never settled silently: the same value repeated is used,
 * different values are all ignored (which one a link meant is unknowable), and either is reported.
 */
export function parseUrlState(search: string): ParsedUrlState {
  const params = new URLSearchParams(search);
  const state: UrlState = { ...DEFAULT_URL_STATE };
  const problems: string[] = [];
  for (const key of KEYS) {
    const values = params.getAll(key);
    if (values.length === 0) continue;
    // The wording of the playground's and the bench panel's address parameters: "Address: what: why; ignored".
    const expected = `expected one of ${FIELDS[key].options.join(", ")}`;
    const fallback = `ignored, using ${DEFAULT_URL_STATE[key]}`;
    if (values.length > 1) {
      const given = values.map((v) => JSON.stringify(v)).join(", ");
      const one = new Set(values).size === 1 ? FIELDS[key].safeParse(values[0]) : undefined;
      if (one?.success) {
        (state as Record<Key, string>)[key] = one.data;
        problems.push(`Address: ${key} appears ${values.length} times (${given}); using ${one.data}`);
      } else {
        const why = one ? expected : "different values";
        problems.push(`Address: ${key} appears ${values.length} times (${given}): ${why}; ${fallback}`);
      }
      continue;
    }
    const parsed = FIELDS[key].safeParse(values[0]);
    if (parsed.success) {
      (state as Record<Key, string>)[key] = parsed.data;
    } else {
      problems.push(`Address: ${key}=${values[0]}: ${expected}, got ${JSON.stringify(values[0])}; ${fallback}`);
    }
  }
  return { state, problems };
}

/** The query string for a state, leaving out defaults and keeping any parameters it does not own. */
export function formatUrlState(state: UrlState, previousSearch = ""): string {
  const params = new URLSearchParams(previousSearch);
  for (const key of KEYS) {
    if (state[key] === DEFAULT_URL_STATE[key]) params.delete(key);
    else params.set(key, state[key]);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Replaces the address bar's query with the state, without a reload or a history entry. */
export function writeUrlState(state: UrlState): void {
  replaceSearch(formatUrlState(state, window.location.search));
}

/** Puts a query string in the address bar (path and hash kept), without a reload or a history entry. */
export function replaceSearch(search: string): void {
  replaceAddress(search, window.location.hash);
}

/** Puts a query string and a fragment in the address bar, without a reload or a history entry. */
export function replaceAddress(search: string, hash: string): void {
  if (search === window.location.search && hash === window.location.hash) return;
  window.history.replaceState(null, "", `${window.location.pathname}${search}${hash}`);
}
