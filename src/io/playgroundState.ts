import { z } from "zod";
import { BACKEND_REQUESTS, type BackendRequest } from "../names/backends";
import { STRATEGIES, type Strategy } from "../names/strategies";
import { IoError } from "./ioError";
import { MAX_CELLS, MAX_ROWS, MAX_TOKENS } from "./playgroundLimits";

/**
 * Everything the playground shows, as one typed table: the URL (`?s=`), local storage and the
 * exports all go through this schema, so a link or a restored session reproduces a view exactly.
 *
 * Companion modules (import from them, not from here, to keep this file free of math):
 * - `playgroundProblem.ts`: `materializeRows(state)` (preset + seed → concrete rows, deterministic)
 *   and `stateToProblem(state, precision)` (→ core's ScanProblem), `paddingStats(rows)`;
 * - `presets.ts`: seeded generators, built-in examples, `DEFAULT_PLAYGROUND_STATE`;
 * - `shareLink.ts`: encode/decode for the URL and local storage.
 */

export const ESTIMATORS = ["discounted", "gae", "reinforce_pp"] as const;
export type Estimator = (typeof ESTIMATORS)[number];

/**
 * What the chunked side runs in; the reference is always core's float64 serial scan.
 * - `float32-engine`: the tfjs engine in the worker (float32), with the chosen backend and strategy;
 * - `slime-exact`: core's float32 emulation of slime's scan (netlib summation order), no engine;
 * - `float64`: core's chunked scan in float64 (shows the algorithm alone, without rounding).
 */
export const PRECISIONS = ["float32-engine", "slime-exact", "float64"] as const;
export type PlaygroundPrecision = (typeof PRECISIONS)[number];

/** How the error heatmap and summary measure |chunked − serial|. */
export const ERROR_METRICS = ["abs", "rel", "ulp"] as const;
export type ErrorMetric = (typeof ERROR_METRICS)[number];

/** Which values set the heatmap's colour domain. */
export const ERROR_SCOPES = ["batch", "row", "chunk"] as const;
export type ErrorScope = (typeof ERROR_SCOPES)[number];

/** Seeded row generators (see presets.ts for what each draws). */
export const GENERATORS = [
  "terminal",
  "dense",
  "sparse",
  "kl-terminal",
  "multi-turn",
  "huge-alternating",
  "constant",
] as const;
export type GeneratorId = (typeof GENERATORS)[number];

// The row limits live apart from the zod schemas: the CLI's tensor readers check .npy shapes against them.
export { MAX_CELLS, MAX_ROWS, MAX_TOKENS };
/** A chunk of C tokens is a C×C discount kernel in the engine (64 MiB of float32 at 4096). */
export const MAX_CHUNK_SIZE = 4096;
/** Every input must be a float32 value (the golden schema's contract), hence finite below this. */
export const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * One batch row (one sequence). Its `length` is the source of truth: every lane present has
 * exactly `length` entries (a shorter row of a ragged batch simply has a smaller length; the
 * scan right-pads it with zeros as slime does). A lane that is absent reads as zeros (the mask as
 * all ones), so switching estimator never discards what was drawn in another lane.
 * Numbers are float32 values: inputs are rounded to float32 on the way in (golden-schema rule),
 * so the float64 reference and the float32 scan see the same numbers.
 */
export interface PlaygroundRow {
  length: number;
  /** Per-token rewards (discounted returns, GAE). REINFORCE++ does not read them. */
  rewards?: number[];
  /** Critic values V_t (GAE). */
  values?: number[];
  /** Per-token KL (REINFORCE++: token reward −kl_coef·kl·mask). */
  kl?: number[];
  /**
   * Loss mask, 0 = masked (tool/observation output). REINFORCE++ uses it (KL masked, outcome at
   * the last unmasked token); slime's discounted and GAE scans take no mask: there it is display only.
   */
  lossMask?: (0 | 1)[];
  /** Scalar outcome reward (REINFORCE++), added at the row's last unmasked token. */
  outcome?: number;
}

export type PlaygroundData =
  /** Rows drawn by a seeded generator: stored by seed, reproduced exactly by materializeRows. */
  | { source: "preset"; preset: GeneratorId; seed: number; rows: number; tokens: number; ragged: boolean }
  /** Concrete rows: drawn by hand, imported or edited. */
  | { source: "inline"; rows: PlaygroundRow[] };

/** The libraries whose conventions the playground runs (core's LIBRARIES, repeated so io stays free of core math). */
export const CONVENTION_LIBRARIES = ["slime", "openrlhf", "verl"] as const;
export type ConventionLibrary = (typeof CONVENTION_LIBRARIES)[number];

/**
 * How slime, OpenRLHF or verl would turn the same rollout into REINFORCE++ or GAE outputs
 * (cases/SCHEMA.md, library conventions): the library shown, the others run beside it, whether
 * advantages are whitened and OpenRLHF's clamp of the outcome reward. Absent in older links:
 * DEFAULT_CONVENTION then applies.
 */
export interface ConventionSettings {
  library: ConventionLibrary;
  /** Other libraries run on the same inputs and overlaid (none: no comparison). */
  compare: ConventionLibrary[];
  /** Whiten advantages (slime's normalize_advantages; OpenRLHF and verl always do, off shows them before it). */
  normalize: boolean;
  /** OpenRLHF's clamp of the outcome reward, [low, high]; null for none. */
  rewardClip: [number, number] | null;
}

/** OpenRLHF's command-line default clip is [-10, 10]. */
export const DEFAULT_CONVENTION: ConventionSettings = {
  library: "slime",
  compare: [],
  normalize: false,
  rewardClip: [-10, 10],
};

/** The context-parallel panel's steps, in order (the panel's captions and drawings live in ui/contextParallel). */
export const CP_STEPS = ["split", "shift", "pieces", "gather", "scan", "slice"] as const;
export type CpStep = (typeof CP_STEPS)[number];
export const MAX_CP_SIZE = 8;
/** Longest prompt the panel puts before the row's response: a sample of up to 2 × MAX_TOKENS tokens. */
export const MAX_CP_PROMPT_LENGTH = MAX_TOKENS;

/**
 * The context-parallel panel as the user left it: whether it is open, cp_size, the prompt length
 * before the selected row's response and the step shown. Absent in older links: DEFAULT_CONTEXT_PARALLEL.
 */
export interface ContextParallelSettings {
  open: boolean;
  cpSize: number;
  promptLength: number;
  step: CpStep;
}

export const DEFAULT_CONTEXT_PARALLEL: ContextParallelSettings = {
  open: false,
  cpSize: 4,
  promptLength: 64,
  step: "split",
};

/**
 * Where the playground's row 0 came from when the run view opened one sample of a slime dump in it
 * ("Open this sample in the playground"): the banner names the file, the step and the sample, and
 * the returns chart draws what slime stored for that sample ("stored in the dump") beside the float64
 * reference and the chunked scan. The dump's outputs are a comparison lane of their own, never an
 * input: the scan reads only the row's lanes. Kept until the user dismisses the banner (or loads
 * another batch).
 */
export interface DumpComparison {
  /** The dump's file name (or "train + rollout" names), as the user chose it: shown as text. */
  file: string;
  /** slime's rollout_id, as the dump stores it (or the number in `train_data/{rollout_id}.pt`); null when unknown. */
  step: number | null;
  /** The sample's index in the dump's `samples` list. */
  sample: number;
  rolloutPosition: number | null;
  /** Samples in the dump: the batch slime normalised over. */
  batchSize: number;
  /** slime's `advantage_estimator` of the replay. */
  estimator: string;
  /** The dump's advantages are whitened over the whole batch (`--normalize-advantages`); the playground shows raw ones. */
  normalized: boolean;
  /** What slime stored for this sample, float32 values, one per response token. */
  advantages: number[];
  returns: number[];
}

export interface PlaygroundState {
  estimator: Estimator;
  /** Discount γ in [0, 1]. */
  gamma: number;
  /** GAE λ in [0, 1]. */
  lambd: number;
  /** Tokens per chunk, 1 … MAX_CHUNK_SIZE. */
  chunkSize: number;
  /** REINFORCE++ KL coefficient β ≥ 0. */
  klCoef: number;
  precision: PlaygroundPrecision;
  backend: BackendRequest;
  strategy: Strategy;
  data: PlaygroundData;
  /** The row shown in the lane editor and the charts (0-based; clamp to the row count when drawing). */
  selectedRow: number;
  errorMetric: ErrorMetric;
  errorScope: ErrorScope;
  /** GAE only: which output the charts show. */
  output: "advantages" | "returns";
  /** Library conventions (REINFORCE++ and GAE); absent: DEFAULT_CONVENTION. */
  convention?: ConventionSettings;
  /** The context-parallel panel; absent: DEFAULT_CONTEXT_PARALLEL. */
  contextParallel?: ContextParallelSettings;
  /** Row 0 is a sample of a slime dump (the run view's "Open this sample in the playground"); absent otherwise. */
  dump?: DumpComparison;
  /**
   * The returns chart splits the row in focus into each chunk's local sum and the carry from later
   * chunks (`?carries=1`); absent: off.
   */
  showCarries?: boolean;
}

/** "1.5", "\"abc\"", "missing": how a bad value is quoted in a message. */
export function showValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  return value === null ? "null" : typeof value;
}

function numberIn(lo: number, hi: number, integer = false) {
  const what = `${integer ? "an integer" : "a number"} between ${lo} and ${hi}`;
  const error = (issue: { input?: unknown }) => `expected ${what}, got ${showValue(issue.input)}`;
  return z
    .number({ error })
    .refine((x) => x >= lo && x <= hi && (!integer || Number.isInteger(x)), { error, abort: true });
}

function oneOf<T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: (issue) => `expected one of ${values.join(", ")}, got ${showValue(issue.input)}` });
}

/** Lanes are checked by hand (first bad element only): zod would list every element of a long row. */
// z.custom, not z.array: zod would visit (and copy) every element of a 65536-token lane.
const lane = z.custom<unknown[]>((value) => Array.isArray(value), {
  error: (issue) => `expected a list of numbers, got ${showValue(issue.input)}`,
});

const rowSchema = z
  .object({
    length: numberIn(0, MAX_TOKENS, true),
    rewards: lane.optional(),
    values: lane.optional(),
    kl: lane.optional(),
    lossMask: lane.optional(),
    outcome: numberIn(-FLOAT32_MAX, FLOAT32_MAX).optional(),
  })
  .strict()
  .superRefine((row, ctx) => {
    for (const name of ["rewards", "values", "kl", "lossMask"] as const) {
      const values = row[name];
      if (!values) continue;
      if (values.length !== row.length) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: `expected ${row.length} values (length), got ${values.length}`,
        });
        continue;
      }
      const ok = name === "lossMask" ? isMaskValue : isFloat32Value;
      const bad = values.findIndex((v) => !ok(v));
      if (bad >= 0) {
        const what = name === "lossMask" ? "0 or 1" : "a number within float32 range (or NaN, ±Infinity)";
        ctx.addIssue({ code: "custom", path: [name, bad], message: `expected ${what}, got ${showValue(values[bad])}` });
      }
    }
  }) as unknown as z.ZodType<PlaygroundRow>;

/** NaN and ±Inf are float32 values too: a training dump has them, and the playground shows what they do. */
function isFloat32Value(v: unknown): boolean {
  return typeof v === "number" && (!Number.isFinite(v) || Math.abs(v) <= FLOAT32_MAX);
}
function isMaskValue(v: unknown): boolean {
  return v === 0 || v === 1;
}

const dataSchema = z.discriminatedUnion(
  "source",
  [
    z
      .object({
        source: z.literal("preset"),
        preset: oneOf(GENERATORS),
        seed: numberIn(0, 2 ** 32 - 1, true),
        rows: numberIn(1, MAX_ROWS, true),
        tokens: numberIn(1, MAX_TOKENS, true),
        ragged: z.boolean({ error: (issue) => `expected true or false, got ${showValue(issue.input)}` }),
      })
      .strict(),
    z.object({ source: z.literal("inline"), rows: z.array(rowSchema).min(1).max(MAX_ROWS) }).strict(),
  ],
  { error: (issue) => (issue.code === "invalid_union" ? `expected source "preset" or "inline"` : undefined) },
);

const conventionSchema = z
  .object({
    library: oneOf(CONVENTION_LIBRARIES),
    compare: z.array(oneOf(CONVENTION_LIBRARIES), {
      error: (issue) => `expected a list of libraries, got ${showValue(issue.input)}`,
    }),
    normalize: z.boolean({ error: (issue) => `expected true or false, got ${showValue(issue.input)}` }),
    rewardClip: z
      .tuple([numberIn(-FLOAT32_MAX, FLOAT32_MAX), numberIn(-FLOAT32_MAX, FLOAT32_MAX)], {
        error: (issue) => `expected [low, high] or null, got ${showValue(issue.input)}`,
      })
      .nullable(),
  })
  .strict()
  .superRefine((convention, ctx) => {
    const { library, compare, rewardClip } = convention;
    const seen = new Set<string>([library]);
    compare.forEach((other, i) => {
      if (seen.has(other)) {
        const why = other === library ? "is the library shown" : "is listed twice";
        ctx.addIssue({ code: "custom", path: ["compare", i], message: `${other} ${why}` });
      }
      seen.add(other);
    });
    if (rewardClip && rewardClip[0] > rewardClip[1]) {
      ctx.addIssue({
        code: "custom",
        path: ["rewardClip"],
        message: `low ${rewardClip[0]} is above high ${rewardClip[1]}`,
      });
    }
  });

const contextParallelSchema = z
  .object({
    open: z.boolean({ error: (issue) => `expected true or false, got ${showValue(issue.input)}` }),
    cpSize: numberIn(1, MAX_CP_SIZE, true),
    promptLength: numberIn(1, MAX_CP_PROMPT_LENGTH, true),
    step: oneOf(CP_STEPS),
  })
  .strict();

const dumpComparisonSchema = z
  .object({
    file: z.string({ error: (issue) => `expected a file name, got ${showValue(issue.input)}` }).max(512),
    step: numberIn(0, 2 ** 53, true).nullable(),
    sample: numberIn(0, 2 ** 24, true),
    rolloutPosition: numberIn(0, 2 ** 53, true).nullable(),
    batchSize: numberIn(1, 2 ** 24, true),
    estimator: z.string().regex(/^[a-z_]{1,40}$/, { error: "expected one of slime's estimator names" }),
    normalized: z.boolean({ error: (issue) => `expected true or false, got ${showValue(issue.input)}` }),
    advantages: lane,
    returns: lane,
  })
  .strict()
  .superRefine((dump, ctx) => {
    for (const name of ["advantages", "returns"] as const) {
      const values = dump[name];
      if (values.length > MAX_TOKENS) {
        ctx.addIssue({ code: "custom", path: [name], message: `expected at most ${MAX_TOKENS} values` });
        continue;
      }
      const bad = values.findIndex((v) => !isFloat32Value(v));
      if (bad >= 0)
        ctx.addIssue({
          code: "custom",
          path: [name, bad],
          message: `expected a number within float32 range (or NaN, ±Infinity), got ${showValue(values[bad])}`,
        });
    }
  });

export const playgroundStateSchema = z
  .object({
    estimator: oneOf(ESTIMATORS),
    gamma: numberIn(0, 1),
    lambd: numberIn(0, 1),
    chunkSize: numberIn(1, MAX_CHUNK_SIZE, true),
    klCoef: numberIn(0, 1e6),
    precision: oneOf(PRECISIONS),
    backend: oneOf(BACKEND_REQUESTS),
    strategy: oneOf(STRATEGIES),
    data: dataSchema,
    selectedRow: numberIn(0, MAX_ROWS - 1, true),
    errorMetric: oneOf(ERROR_METRICS),
    errorScope: oneOf(ERROR_SCOPES),
    output: oneOf(["advantages", "returns"] as const),
    convention: conventionSchema.optional(),
    contextParallel: contextParallelSchema.optional(),
    dump: dumpComparisonSchema.optional(),
    showCarries: z.boolean({ error: (issue) => `expected true or false, got ${showValue(issue.input)}` }).optional(),
  })
  .strict()
  .superRefine((state, ctx) => {
    if (state.data.source !== "inline") {
      const { rows, tokens } = state.data;
      if (rows * tokens > MAX_CELLS) {
        ctx.addIssue({
          code: "custom",
          path: ["data"],
          message: `${rows} rows × ${tokens} tokens is above the limit of ${MAX_CELLS} cells`,
        });
      }
      return;
    }
    const rows = state.data.rows as PlaygroundRow[];
    const longest = rows.reduce((max, row) => Math.max(max, row.length), 0);
    if (rows.length * longest > MAX_CELLS) {
      ctx.addIssue({
        code: "custom",
        path: ["data", "rows"],
        message: `${rows.length} rows padded to ${longest} tokens is above the limit of ${MAX_CELLS} cells`,
      });
    }
  }) as unknown as z.ZodType<PlaygroundState>;

/** A value that is not a valid playground state: `field` (= `where`) is the dotted path, `message` starts with it. */
export class PlaygroundStateError extends IoError {
  readonly field: string;
  constructor(field: string, detail: string, source = "") {
    super(field, detail, source);
    this.name = "PlaygroundStateError";
    this.field = field;
  }
}

export type StateResult = { ok: true; state: PlaygroundState } | { ok: false; error: PlaygroundStateError };

/** Validates anything (parsed JSON, a stored object) as a state; never throws. */
export function parsePlaygroundState(value: unknown): StateResult {
  const parsed = playgroundStateSchema.safeParse(value);
  if (parsed.success) return { ok: true, state: parsed.data };
  const issue = parsed.error.issues[0];
  if (issue.code === "unrecognized_keys") {
    const field = formatField([...issue.path, issue.keys[0]]);
    return { ok: false, error: new PlaygroundStateError(field, "unknown field (this version does not read it)") };
  }
  if (issue.path.length === 0 && issue.code === "invalid_type") {
    return {
      ok: false,
      error: new PlaygroundStateError("", `expected a playground state object, got ${showValue(value)}`),
    };
  }
  return { ok: false, error: new PlaygroundStateError(formatField(issue.path), issue.message) };
}

/** `data.rows[2].kl[17]` */
export function formatField(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === "number" ? `${out}[${key}]` : `${out}${out ? "." : ""}${String(key)}`),
    "",
  );
}
