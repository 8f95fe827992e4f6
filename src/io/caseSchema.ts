import { z } from "zod";

/**
 * The golden case file format (schema_version 1, see cases/SCHEMA.md), as a zod schema so that a
 * malformed file is rejected with the path of the field at fault.
 */
const numbers = z.array(z.number());
const raggedNumbers = z.array(numbers);
/** Loss masks are 0 or 1 (the reference's int masks). */
const masks = z.array(z.array(z.union([z.literal(0), z.literal(1)], { error: "a loss mask value is 0 or 1" })));
/** An integer; 0 and negative sizes are left to the scan, which fails as the reference does. */
const chunkSize = z.number().int({ error: "chunk_size must be an integer" });
const count = z.number().int().nonnegative();

const common = {
  name: z.string().min(1),
  note: z.string().optional(),
  seed: z.number().optional(),
  max_abs_err_float32: z.number().nullable().optional(),
  diagnostics: z.record(z.string(), z.unknown()).optional(),
  tolerance: z.object({ float64: z.number().nonnegative(), float32: z.number().nonnegative() }).optional(),
  float32_pow_tables: z.object({ M_row0: numbers, pow_vec: numbers }).optional(),
  /** The reference's exception, e.g. "AssertionError: Sequence at index 1 is fully masked.". */
  expect_error: z.string().optional(),
};

const discountedCase = z.object({
  ...common,
  kind: z.literal("discounted"),
  shape: z.tuple([count, count]),
  params: z.object({ discount: z.number(), chunk_size: chunkSize }),
  inputs: z.object({ rewards: numbers }),
  expected: z.object({ returns: numbers }).nullable(),
  chunked_float32: z.object({ returns: numbers }).nullable(),
});

const gaeCase = z.object({
  ...common,
  kind: z.literal("gae"),
  shape: z.tuple([count, count]),
  params: z.object({ gamma: z.number(), lambd: z.number(), discount: z.number().optional(), chunk_size: chunkSize }),
  inputs: z.object({ rewards: numbers, values: numbers }),
  expected: z.object({ advantages: numbers, returns: numbers, deltas: numbers.optional() }).nullable(),
  chunked_float32: z.object({ advantages: numbers, returns: numbers }).nullable(),
});

const reinforcePPCase = z.object({
  ...common,
  kind: z.literal("reinforce_pp"),
  lengths: z.array(count),
  params: z.object({ kl_coef: z.number(), gamma: z.number(), chunk_size: chunkSize.default(128) }),
  inputs: z.object({ rewards: numbers, kl: raggedNumbers, loss_masks: masks }),
  expected: z.object({ returns: raggedNumbers, token_level_rewards: raggedNumbers }).nullable(),
  chunked_float32: z.object({ returns: raggedNumbers, token_level_rewards: raggedNumbers }).nullable(),
});

/** Library conventions (cases README, "kind: convention"): slime, OpenRLHF and verl on the same inputs. */
const conventionOutputs = z.object({
  token_level_rewards: raggedNumbers,
  returns: raggedNumbers,
  advantages: raggedNumbers,
});
const conventionCase = z.object({
  ...common,
  kind: z.literal("convention"),
  library: z.enum(["slime", "openrlhf", "verl"]),
  estimator: z.enum(["reinforce_pp", "gae"]),
  lengths: z.array(count),
  params: z.object({
    gamma: z.number(),
    lambd: z.number().optional(),
    kl_coef: z.number(),
    normalize: z.boolean(),
    reward_clip_range: z.tuple([z.number(), z.number()]).nullable().optional(),
  }),
  inputs: z.object({
    rewards: numbers,
    kl: raggedNumbers,
    loss_masks: masks,
    values: raggedNumbers.optional(),
  }),
  reward_index: z.array(z.number().int()).optional(),
  expected: conventionOutputs.nullable(),
  float32: conventionOutputs.nullable().optional(),
});

const KNOWN_KINDS = ["discounted", "gae", "reinforce_pp", "convention"] as const;

const scanCase = z
  .discriminatedUnion("kind", [discountedCase, gaeCase, reinforcePPCase, conventionCase], {
    error: (issue) =>
      issue.code === "invalid_union"
        ? `unsupported case kind ${JSON.stringify((issue.input as { kind?: unknown })?.kind)}; this version checks ${KNOWN_KINDS.join(", ")}`
        : undefined,
  })
  .superRefine(checkSizes);

export const caseFileSchema = z
  .object({
    meta: z.object({ schema_version: z.literal(1) }).loose(),
    cases: z.array(scanCase),
  })
  .superRefine((file, ctx) => {
    const seen = new Map<string, number>();
    file.cases.forEach((c, i) => {
      const first = seen.get(c.name);
      if (first !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["cases", i, "name"],
          message: `duplicate case name (also cases[${first}])`,
        });
      }
      seen.set(c.name, i);
    });
  });

export type CaseFile = z.infer<typeof caseFileSchema>;
export type ScanCase = z.infer<typeof scanCase>;
export type DiscountedCase = z.infer<typeof discountedCase>;
export type GaeCase = z.infer<typeof gaeCase>;
export type ReinforcePPCase = z.infer<typeof reinforcePPCase>;
export type ConventionCase = z.infer<typeof conventionCase>;

type Ctx = z.core.$RefinementCtx<ScanCase>;
type Path = (string | number)[];

/** Cross-field checks a plain schema cannot express: every array has the size the shape implies. */
function checkSizes(c: ScanCase, ctx: Ctx): void {
  const expectLength = (values: unknown[] | undefined, length: number, path: Path, why: string) => {
    if (values && values.length !== length) {
      ctx.addIssue({ code: "custom", path, message: `expected ${length} numbers (${why}), got ${values.length}` });
    }
  };
  if (c.expect_error === undefined) {
    for (const field of c.kind === "convention"
      ? (["expected"] as const)
      : (["expected", "chunked_float32"] as const)) {
      if ((c as Record<string, unknown>)[field] === null) {
        ctx.addIssue({ code: "custom", path: [field], message: "is null, but the case has no expect_error" });
      }
    }
  }
  const tables = c.float32_pow_tables;
  if (tables && c.kind !== "convention" && c.params.chunk_size > 0) {
    const C = c.params.chunk_size;
    expectLength(tables.M_row0, C, ["float32_pow_tables", "M_row0"], `chunk_size = ${C}`);
    expectLength(tables.pow_vec, C, ["float32_pow_tables", "pow_vec"], `chunk_size = ${C}`);
  }
  if (c.kind === "reinforce_pp" || c.kind === "convention") {
    const B = c.lengths.length;
    expectLength(c.inputs.rewards, B, ["inputs", "rewards"], `one per sequence, ${B} lengths`);
    const outputs =
      c.kind === "convention" ? ["token_level_rewards", "returns", "advantages"] : ["returns", "token_level_rewards"];
    const recorded =
      c.kind === "convention"
        ? { expected: c.expected, float32: c.float32 }
        : { expected: c.expected, chunked_float32: c.chunked_float32 };
    const ragged: [string, number[][] | undefined][] = [
      ["inputs.kl", c.inputs.kl],
      ["inputs.loss_masks", c.inputs.loss_masks],
    ];
    if (c.kind === "convention") {
      if (c.estimator === "gae" && !c.inputs.values) {
        ctx.addIssue({ code: "custom", path: ["inputs", "values"], message: "is required for a gae convention case" });
      }
      if (c.estimator === "gae" && c.params.lambd === undefined) {
        ctx.addIssue({ code: "custom", path: ["params", "lambd"], message: "is required for a gae convention case" });
      }
      ragged.push(["inputs.values", c.inputs.values]);
      if (c.reward_index) expectLength(c.reward_index, B, ["reward_index"], `one per sequence, ${B} lengths`);
    }
    for (const [field, record] of Object.entries(recorded)) {
      for (const name of outputs)
        ragged.push([`${field}.${name}`, (record as Record<string, number[][]> | null | undefined)?.[name]]);
    }
    for (const [dotted, rows] of ragged) {
      const path = dotted.split(".");
      expectLength(rows, B, path, `one per sequence, ${B} lengths`);
      rows?.forEach((row, i) => {
        expectLength(row, c.lengths[i] ?? 0, [...path, i], `lengths[${i}]`);
      });
    }
    return;
  }
  const [B, T] = c.shape;
  const why = `B·T = ${B}·${T}`;
  const flat: [string, number[] | undefined][] = [
    ["inputs.rewards", c.inputs.rewards],
    ["expected.returns", c.expected?.returns],
    ["chunked_float32.returns", c.chunked_float32?.returns],
  ];
  if (c.kind === "gae") {
    flat.push(
      ["inputs.values", c.inputs.values],
      ["expected.advantages", c.expected?.advantages],
      ["expected.deltas", c.expected?.deltas],
      ["chunked_float32.advantages", c.chunked_float32?.advantages],
    );
  }
  for (const [dotted, values] of flat) expectLength(values, B * T, dotted.split("."), why);
}
