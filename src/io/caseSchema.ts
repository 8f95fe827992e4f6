import { z } from "zod";
import { caseShapeProblems, type Problem } from "./caseLimits";
import { counts, describeValue, integers, masks, numbers, raggedNumbers } from "./numericArrays";
import { slimeDumpShapeProblems } from "./slimeDumpCaseLimits";
import { slimeDumpCase } from "./slimeDumpCaseSchema";

/**
 * The golden case file format (schema_version 1, see cases/SCHEMA.md), as zod schemas so that a
 * malformed file is rejected with the path of the field at fault. Objects are strict: a field the
 * schema does not know (a misspelled `tolerence`) is reported, never silently dropped. Big arrays
 * use the capped validators of numericArrays.
 */
/** An integer; 0 and negative sizes are left to the scan, which fails as the reference does. */
const chunkSize = z.number().int({ error: "chunk_size must be an integer" });
const count = z.number().int().nonnegative();

const common = {
  name: z.string().min(1),
  note: z.string().optional(),
  seed: z.number().optional(),
  max_abs_err_float32: z.number().nullable().optional(),
  diagnostics: z.record(z.string(), z.unknown()).optional(),
  tolerance: z.strictObject({ float64: z.number().nonnegative(), float32: z.number().nonnegative() }).optional(),
  float32_pow_tables: z
    .strictObject({
      M_row0: numbers,
      pow_vec: numbers,
      /**
       * [row, col, value]: entries of M that are not M_row0[col - row]. torch computes M
       * elementwise and its scalar-loop elements can round differently (core/torchPow); absent
       * when M is Toeplitz, as in every golden file.
       */
      M_patches: z
        .array(z.tuple([count, count, z.number()]))
        .max(1 << 16)
        .optional(),
    })
    .optional(),
  /** The reference's exception, e.g. "AssertionError: Sequence at index 1 is fully masked.". */
  expect_error: z.string().optional(),
};

const discountedCase = z.strictObject({
  ...common,
  kind: z.literal("discounted"),
  shape: z.tuple([count, count]),
  params: z.strictObject({ discount: z.number(), chunk_size: chunkSize }),
  inputs: z.strictObject({ rewards: numbers }),
  expected: z.strictObject({ returns: numbers }).nullable(),
  chunked_float32: z.strictObject({ returns: numbers }).nullable(),
});

const gaeCase = z.strictObject({
  ...common,
  kind: z.literal("gae"),
  shape: z.tuple([count, count]),
  params: z.strictObject({
    gamma: z.number(),
    lambd: z.number(),
    discount: z.number().optional(),
    chunk_size: chunkSize,
  }),
  inputs: z.strictObject({ rewards: numbers, values: numbers }),
  expected: z.strictObject({ advantages: numbers, returns: numbers, deltas: numbers.optional() }).nullable(),
  chunked_float32: z.strictObject({ advantages: numbers, returns: numbers }).nullable(),
});

const reinforcePPCase = z.strictObject({
  ...common,
  kind: z.literal("reinforce_pp"),
  lengths: counts,
  params: z.strictObject({ kl_coef: z.number(), gamma: z.number(), chunk_size: chunkSize.default(128) }),
  inputs: z.strictObject({ rewards: numbers, kl: raggedNumbers, loss_masks: masks }),
  expected: z.strictObject({ returns: raggedNumbers, token_level_rewards: raggedNumbers }).nullable(),
  chunked_float32: z.strictObject({ returns: raggedNumbers, token_level_rewards: raggedNumbers }).nullable(),
});

/** Library conventions (cases README, "kind: convention"): slime, OpenRLHF and verl on the same inputs. */
const conventionOutputs = z.strictObject({
  token_level_rewards: raggedNumbers,
  returns: raggedNumbers,
  advantages: raggedNumbers,
});
const conventionCase = z.strictObject({
  ...common,
  kind: z.literal("convention"),
  library: z.enum(["slime", "openrlhf", "verl"]),
  estimator: z.enum(["reinforce_pp", "gae"]),
  lengths: counts,
  params: z.strictObject({
    gamma: z.number(),
    lambd: z.number().optional(),
    kl_coef: z.number(),
    normalize: z.boolean(),
    reward_clip_range: z.tuple([z.number(), z.number()]).nullable().optional(),
  }),
  inputs: z.strictObject({
    rewards: numbers,
    kl: raggedNumbers,
    loss_masks: masks,
    values: raggedNumbers.optional(),
  }),
  reward_index: integers.optional(),
  expected: conventionOutputs.nullable(),
  float32: conventionOutputs.nullable().optional(),
});

const KNOWN_KINDS = ["discounted", "gae", "reinforce_pp", "convention", "slime_dump"] as const;

const goldenCase = z.discriminatedUnion(
  "kind",
  [discountedCase, gaeCase, reinforcePPCase, conventionCase, slimeDumpCase],
  {
    error: (issue) =>
      issue.code === "invalid_union"
        ? `unsupported case kind ${describeKind((issue.input as { kind?: unknown })?.kind)}; this version checks ${KNOWN_KINDS.join(", ")}`
        : undefined,
  },
);

/** The kind a file gave, short: stringifying whatever it holds could overflow the stack on deep nesting. */
function describeKind(kind: unknown): string {
  if (typeof kind !== "string") return describeValue(kind);
  return JSON.stringify(kind.length > 40 ? `${kind.slice(0, 40)}…` : kind);
}

/** The documented `meta` fields (cases/SCHEMA.md); only schema_version is read. */
const meta = z.strictObject({
  schema_version: z.literal(1),
  title: z.string().optional(),
  source: z.unknown().optional(),
  sources: z.unknown().optional(),
  generator: z.unknown().optional(),
  float64_patches: z.unknown().optional(),
});

/** The top level; cases are validated one by one so that no list of issues grows with the file. */
const fileShape = z.strictObject({ meta, cases: z.array(z.unknown()) });

/** Any case a file may hold. */
export type GoldenCase = z.infer<typeof goldenCase>;
/** A case a scan solver runs: every kind but slime_dump, whose values under test are the dump's own. */
export type ScanCase = Exclude<GoldenCase, { kind: "slime_dump" }>;
export type SlimeDumpCase = Extract<GoldenCase, { kind: "slime_dump" }>;
export type CaseFile = { meta: z.infer<typeof meta>; cases: GoldenCase[] };
export type DiscountedCase = z.infer<typeof discountedCase>;
export type ConventionCase = z.infer<typeof conventionCase>;
export type { Problem };

/**
 * Validates parsed JSON as a case file: the file, or undefined after `report` has seen every
 * problem (path from the top level). Sizes and limits are checked only on a case whose fields are
 * all well typed, so no check loops over a shape that has not been validated.
 */
export function validateCaseFile(json: unknown, report: (problem: Problem) => void): CaseFile | undefined {
  const top = fileShape.safeParse(json);
  let valid = top.success;
  if (!top.success) for (const issue of top.error.issues) reportIssue(issue, [], report);
  const rawCases = (json as { cases?: unknown } | null)?.cases;
  if (!Array.isArray(rawCases)) return undefined;
  const cases: GoldenCase[] = [];
  const seen = new Map<string, number>();
  rawCases.forEach((raw, i) => {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      // Said here, without zod, whose error object per case costs more than the check.
      valid = false;
      report({ path: ["cases", i], message: `expected a case (an object), got ${describeValue(raw)}` });
      return;
    }
    const parsed = goldenCase.safeParse(raw);
    if (!parsed.success) {
      valid = false;
      for (const issue of parsed.error.issues) reportIssue(issue, ["cases", i], report);
      return;
    }
    const c = parsed.data;
    for (const problem of c.kind === "slime_dump" ? slimeDumpShapeProblems(c) : caseShapeProblems(c)) {
      valid = false;
      report({ ...problem, path: ["cases", i, ...problem.path] });
    }
    const first = seen.get(c.name);
    if (first !== undefined) {
      valid = false;
      report({ path: ["cases", i, "name"], message: `duplicate case name (also cases[${first}])` });
    } else seen.set(c.name, i);
    cases.push(c);
  });
  return valid && top.success ? { meta: top.data.meta, cases } : undefined;
}

/** One problem per zod issue; an unknown-keys issue becomes one problem per unknown field. */
function reportIssue(issue: z.core.$ZodIssue, prefix: (string | number)[], report: (problem: Problem) => void) {
  const path = [...prefix, ...(issue.path as (string | number)[])];
  if (issue.code === "unrecognized_keys") {
    for (const key of issue.keys) report({ path: [...path, key], message: "unknown field" });
    return;
  }
  const more = issue.code === "custom" ? (issue.params as { more?: number } | undefined)?.more : undefined;
  report({ path, message: issue.message, ...(more ? { more } : {}) });
}
