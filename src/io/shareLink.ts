import LZString from "lz-string";
import { decompressBounded } from "./lzBounded";
import {
  DEFAULT_CONVENTION,
  MAX_CELLS,
  type PlaygroundState,
  PlaygroundStateError,
  parsePlaygroundState,
  showValue,
} from "./playgroundState";
import { dumpToWire, rowToWire, unpackLanes } from "./stateWire";

/**
 * The playground's state in a link (`#s=…`, in the fragment: no server ever sees it, so a link of any
 * length opens on any host; links written before as `?s=…` still open) and in the saved session,
 * one format for both: the state's
 * JSON, compressed with lz-string into URL-safe text, with inline lanes packed as float32 (see
 * stateWire.ts: repetitive lanes inside the compressed JSON, varied ones as raw base64url parts
 * after it, separated by `.`). Seeded presets are stored by their seed, so their links stay short.
 * Decoding validates everything with the state's schema and never throws: a bad link gives a
 * PlaygroundStateError naming the field.
 *
 * Lanes travel as float32: a value that is not a float32 comes back rounded, as the scan rounds
 * it anyway. Scripts may also write lanes as plain JSON arrays of numbers.
 */
export const SHARE_PARAM = "s";
export const LINK_VERSION = 1;
export const STORAGE_KEY = "scanlab.playground";

/** Longest compressed text decoded (16 Mi characters), and longest JSON it may expand to (32 Mi). */
export const MAX_LINK_CHARS = 2 ** 24;
export const MAX_JSON_CHARS = 2 ** 25;
/** At most 4 lanes of MAX_CELLS numbers each (2^22 numbers in all). */
export const MAX_LINK_NUMBERS = 4 * MAX_CELLS;

export type DecodeResult =
  | { ok: true; state: PlaygroundState }
  /** `overBudget`: refused only for holding more than `maxNumbers` numbers. */
  | { ok: false; error: PlaygroundStateError; overBudget?: true };

/** The compressed, URL-safe text for a state (the value of `s`): lz-string JSON, then `.`-separated raw lanes. */
export function encodeState(state: PlaygroundState): string {
  const { data, dump, ...settings } = state;
  const parts: string[] = [];
  const wireData =
    data.source === "inline" ? { source: "inline", rows: data.rows.map((row) => rowToWire(row, parts)) } : data;
  const wireDump = dump ? { dump: dumpToWire(dump, parts) } : {};
  const json = LZString.compressToEncodedURIComponent(
    JSON.stringify({ v: LINK_VERSION, ...settings, ...wireDump, data: wireData }),
  );
  return [json, ...parts].join(".");
}

/**
 * The state in a link's `s` text (or stored text); `source` names it in messages. Never throws.
 * `maxNumbers` caps the packed lane values unpacked (a lower cap keeps tests fast).
 */
export function decodeState(text: string, source = "Shared link", maxNumbers = MAX_LINK_NUMBERS): DecodeResult {
  const fail = (field: string, detail: string): DecodeResult => ({
    ok: false,
    error: new PlaygroundStateError(field, detail, source),
  });
  if (typeof text !== "string" || text.length === 0) return fail("", "is empty");
  if (text.length > MAX_LINK_CHARS)
    return fail("", `is ${text.length} characters long, above the limit of ${MAX_LINK_CHARS}`);
  const [compressed, ...parts] = text.split(".");
  const decompressed = decompressBounded(compressed, MAX_JSON_CHARS);
  if (!decompressed.ok && decompressed.reason === "too large") {
    return fail("", `expands to more than ${MAX_JSON_CHARS} characters`);
  }
  const json = decompressed.ok ? decompressed.text : "";
  if (!json) return fail("", "is damaged (not compressed playground data); was it cut short when copied?");
  let wire: unknown;
  try {
    wire = JSON.parse(json);
  } catch {
    return fail("", "is damaged (its content is not JSON); was it cut short when copied?");
  }
  if (!wire || typeof wire !== "object" || Array.isArray(wire)) return fail("", "does not hold a playground state");
  const { v, ...state } = wire as Record<string, unknown>;
  if (v !== LINK_VERSION) {
    return fail("v", `this link is format ${showValue(v)}; this version of Scanlab reads format ${LINK_VERSION}`);
  }
  const unpacked = unpackLanes(state, parts, maxNumbers);
  if (unpacked?.overBudget) return { ...fail(unpacked.field, unpacked.detail), overBudget: true } as DecodeResult;
  if (unpacked) return fail(unpacked.field, unpacked.detail);
  const parsed = parsePlaygroundState(state);
  return parsed.ok ? parsed : fail(parsed.error.field, stripField(parsed.error));
}

function stripField(error: PlaygroundStateError): string {
  return error.field ? error.message.slice(error.field.length + 2) : error.message;
}

/** Readable parameters a script may add to a link (`?gamma=0.99&chunk=64`); they override `s`. */
export const READABLE_PARAMS = {
  estimator: "estimator",
  gamma: "gamma",
  lambd: "lambd",
  chunk: "chunkSize",
  kl: "klCoef",
  precision: "precision",
  backend: "backend",
  strategy: "strategy",
  row: "selectedRow",
  metric: "errorMetric",
  scope: "errorScope",
  output: "output",
} as const satisfies Record<string, keyof PlaygroundState>;
/** Readable parameters of a seeded preset; `preset` switches inline data to that generator. */
export const PRESET_PARAMS = ["preset", "seed", "rows", "tokens", "ragged"] as const;

/** Readable parameters of the library conventions: `?library=verl&compare=slime,openrlhf&normalize=1`. */
export const CONVENTION_PARAMS = ["library", "compare", "normalize"] as const;

/** Readable on/off view parameters (`?carries=1`: 1 or true, 0 or false). */
export const FLAG_PARAMS = { carries: "showCarries" } as const satisfies Record<string, keyof PlaygroundState>;

export interface SearchResult {
  state: PlaygroundState;
  /** True when `s` was present and valid. */
  fromLink: boolean;
  /** Why `s` was refused (the state is then `fallback`, with the readable overrides applied). */
  error?: PlaygroundStateError;
  /** Readable parameters that were ignored, each naming the parameter and why. */
  problems: PlaygroundStateError[];
  /** `s` was not read only because it unpacks into more than `maxNumbers` numbers. */
  overBudget?: true;
}

/**
 * Whether an address says anything about the playground's state: a `#s=` or `?s=`, or any readable
 * parameter (`?backend=wasm` included). Only an address without one opens on the first-visit example;
 * the others start from DEFAULT_PLAYGROUND_STATE, as scripts expect.
 */
export function addressHasState(search: string, hash = ""): boolean {
  if (linkText(search, hash) !== null) return true;
  const params = new URLSearchParams(search);
  return [...Object.keys(READABLE_PARAMS), ...PRESET_PARAMS, ...CONVENTION_PARAMS, ...Object.keys(FLAG_PARAMS)].some(
    (param) => params.has(param),
  );
}

/**
 * Parameters the page's own URL state reads too (src/ui/urlState.ts): it reports their problems,
 * so the playground does not say the same thing twice.
 */
const PAGE_PARAMS = new Set(["backend", "strategy"]);

/**
 * The state's text in an address: the fragment's `#s=…` (what the page writes), else the query's
 * `?s=…` (links from before the state moved to the fragment). Null when there is neither.
 */
export function linkText(search: string, hash = ""): string | null {
  const fragment = hash.startsWith("#") ? hash.slice(1) : hash;
  for (const pair of fragment.split("&")) {
    if (!pair.startsWith(`${SHARE_PARAM}=`)) continue;
    const raw = pair.slice(SHARE_PARAM.length + 1);
    // A pasted link may come back percent-encoded; the text itself never holds a `%`.
    if (!raw.includes("%")) return raw;
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return new URLSearchParams(search).get(SHARE_PARAM);
}

/** The fragment that carries a state's text (`#s=…`); the text is URL-safe as it is. */
export function stateFragment(encoded: string): string {
  return `#${SHARE_PARAM}=${encoded}`;
}

/**
 * Reads the playground's state from an address: `s` from the fragment (or, in older links, the
 * query), then the query's readable overrides; never throws.
 */
export function stateFromSearch(
  search: string,
  fallback: PlaygroundState,
  hash = "",
  maxNumbers = MAX_LINK_NUMBERS,
): SearchResult {
  const params = new URLSearchParams(search);
  const token = linkText(search, hash);
  let state = fallback;
  let error: PlaygroundStateError | undefined;
  if (token !== null) {
    const decoded = decodeState(token, "Shared link", maxNumbers);
    if (decoded.ok) state = decoded.state;
    else if (decoded.overBudget) return { state, fromLink: false, problems: [], overBudget: true };
    else error = decoded.error;
  }
  const problems: PlaygroundStateError[] = [];
  const tryOverride = (param: string, raw: string, candidate: unknown) => {
    const parsed = parsePlaygroundState(candidate);
    if (parsed.ok) state = parsed.state;
    else if (!PAGE_PARAMS.has(param)) {
      problems.push(new PlaygroundStateError(`${param}=${raw}`, `${stripField(parsed.error)}; ignored`, "Address"));
    }
  };
  // A parameter given twice is never settled silently: which one the link meant is unknowable.
  const single = (param: string): string | null => {
    const values = params.getAll(param);
    if (values.length > 1 && !PAGE_PARAMS.has(param)) {
      const given = values.map((v) => JSON.stringify(v)).join(", ");
      const same = new Set(values).size === 1;
      const detail = `appears ${values.length} times (${given})${same ? "" : "; ignored"}`;
      problems.push(new PlaygroundStateError(param, detail, "Address"));
      if (!same) return null;
    }
    return values[0] ?? null;
  };
  for (const [param, key] of Object.entries(READABLE_PARAMS)) {
    const raw = single(param);
    if (raw !== null) tryOverride(param, raw, { ...state, [key]: readValue(raw) });
  }
  for (const param of PRESET_PARAMS) {
    const raw = single(param);
    if (raw === null) continue;
    if (state.data.source !== "preset" && param !== "preset") {
      problems.push(
        new PlaygroundStateError(
          `${param}=${raw}`,
          "applies to seeded presets, and this batch has inline rows; ignored",
          "Address",
        ),
      );
      continue;
    }
    const base =
      state.data.source === "preset" ? state.data : { source: "preset", seed: 1, rows: 4, tokens: 300, ragged: true };
    const value = param === "ragged" ? readBoolean(raw) : readValue(raw);
    tryOverride(param, raw, { ...state, data: { ...base, [param]: value } });
  }
  for (const param of CONVENTION_PARAMS) {
    const raw = single(param);
    if (raw === null) continue;
    const value = param === "normalize" ? readBoolean(raw) : param === "compare" ? raw.split(",").filter(Boolean) : raw;
    const convention = { ...(state.convention ?? DEFAULT_CONVENTION), [param]: value };
    // A library also named in the compare list leaves it, so `?library=verl` alone always works.
    if (param === "library") convention.compare = convention.compare.filter((other) => other !== raw);
    tryOverride(param, raw, { ...state, convention });
  }
  for (const [param, key] of Object.entries(FLAG_PARAMS)) {
    const raw = single(param);
    if (raw === null) continue;
    const value = readBoolean(raw);
    // Off is the field's absence, as the page writes it.
    tryOverride(param, raw, { ...state, [key]: value === false ? undefined : value });
  }
  return { state, fromLink: token !== null && !error, error, problems };
}

/** A number when the text is one, else the text itself (so the message quotes what was written). */
function readValue(raw: string): unknown {
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(raw.trim()) ? Number(raw) : raw;
}

function readBoolean(raw: string): unknown {
  return raw === "true" || raw === "1" ? true : raw === "false" || raw === "0" ? false : raw;
}

/**
 * The query string that goes with a state in the fragment: other parameters (view, debug, …) are
 * kept; the readable overrides (backend and strategy included: the state holds their values, and
 * left in the query they would override it on the next load) and an old `s` are dropped.
 */
export function searchBeside(previousSearch = ""): string {
  const params = new URLSearchParams(previousSearch);
  const owned = [SHARE_PARAM, ...Object.keys(READABLE_PARAMS), ...PRESET_PARAMS, ...CONVENTION_PARAMS];
  for (const param of [...owned, ...Object.keys(FLAG_PARAMS)]) {
    params.delete(param);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}
