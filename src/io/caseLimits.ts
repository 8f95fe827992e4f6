import type { ScanCase } from "./caseSchema";
import { countText } from "./countText";

/**
 * How big a case may be. A shape is only numbers, so without limits a 200-byte file with shape
 * [1e12, 0] loops over a trillion empty rows, and a few megabytes with chunk_size 2^20 ask for
 * 2^40 multiply-adds. Every limit is checked before anything loops over the shape; within them
 * the work is proportional to the data the file holds.
 */
export const MAX_ROWS = 2 ** 16;
/** Tokens per row (T, or the longest of the ragged lengths). */
export const MAX_TOKENS = 2 ** 24;
/** Rows × tokens (padded to the longest row for a ragged batch, as slime pads it). */
export const MAX_ELEMENTS = 2 ** 27;
/**
 * Multiply-adds of the local scans, rows × padded length × min(chunk_size, T): each token of a
 * chunk sums up to C products, and a chunk longer than the row is still C long. 2^32 is about 15 s
 * in float64 and 2 min in float32 on a 2-core machine.
 */
export const MAX_SCAN_WORK = 2 ** 32;
/** slime's REINFORCE++ and GAE chunk size, which library-convention cases run with. */
const CONVENTION_CHUNK_SIZE = 128;

export interface Problem {
  path: (string | number)[];
  message: string;
  /** How many more problems of the same field were not listed. */
  more?: number;
}
const power = (n: number) => `2^${Number.isInteger(Math.log2(n)) ? Math.log2(n) : Math.log2(n).toFixed(1)}`;
const limit = (n: number) => `${countText(n)} (${power(n)})`;

/** Problems with the size of a parsed case: limits first, then every array against the shape. */
export function caseShapeProblems(c: ScanCase): Problem[] {
  const problems = limitProblems(c);
  return problems.length > 0 ? problems : lengthProblems(c);
}

function limitProblems(c: ScanCase): Problem[] {
  const ragged = c.kind === "reinforce_pp" || c.kind === "convention";
  const rows = ragged ? c.lengths.length : c.shape[0];
  const rowsPath = ragged ? ["lengths"] : ["shape", 0];
  if (rows > MAX_ROWS) {
    return [
      { path: rowsPath, message: `${countText(rows)} rows (sequences) is above the limit of ${limit(MAX_ROWS)}` },
    ];
  }
  let tokens: number;
  let tokensPath: (string | number)[];
  if (ragged) {
    const longest = c.lengths.reduce((best, L, i) => (L > c.lengths[best] ? i : best), 0);
    tokens = c.lengths[longest] ?? 0;
    tokensPath = ["lengths", longest];
  } else {
    tokens = c.shape[1];
    tokensPath = ["shape", 1];
  }
  if (tokens > MAX_TOKENS) {
    return [
      { path: tokensPath, message: `${countText(tokens)} tokens in a row is above the limit of ${limit(MAX_TOKENS)}` },
    ];
  }
  if (rows * tokens > MAX_ELEMENTS) {
    const what = ragged
      ? `${countText(rows)} sequences padded to ${countText(tokens)} tokens`
      : `B·T = ${countText(rows)}·${countText(tokens)}`;
    const message = `${what} = ${countText(rows * tokens)} elements is above the limit of ${limit(MAX_ELEMENTS)}`;
    return [{ path: ragged ? ["lengths"] : ["shape"], message }];
  }
  const chunkSize = c.kind === "convention" ? CONVENTION_CHUNK_SIZE : c.params.chunk_size;
  // 0 and negative chunk sizes are left to the scan, which fails as the reference does.
  if (!(chunkSize >= 1) || tokens === 0) return [];
  const padded = Math.ceil(tokens / chunkSize) * chunkSize;
  const work = rows * padded * Math.min(chunkSize, tokens);
  if (work <= MAX_SCAN_WORK) return [];
  return [
    {
      path: c.kind === "convention" ? ["lengths"] : ["params", "chunk_size"],
      message:
        `chunk_size ${countText(chunkSize)} over ${countText(rows)} rows of ${countText(tokens)} tokens takes ${power(work)} ` +
        `multiply-adds in the local scans (rows · padded length · min(chunk_size, T)), above the limit of ${power(MAX_SCAN_WORK)}`,
    },
  ];
}

/** Every array has the size the shape implies; a recorded output is null only for an error case. */
function lengthProblems(c: ScanCase): Problem[] {
  const problems: Problem[] = [];
  const expectLength = (values: unknown[] | undefined, length: number, path: (string | number)[], why: string) => {
    if (values && values.length !== length) {
      problems.push({ path, message: `expected ${length} numbers (${why}), got ${values.length}` });
    }
  };
  if (c.expect_error === undefined) {
    for (const field of c.kind === "convention"
      ? (["expected"] as const)
      : (["expected", "chunked_float32"] as const)) {
      if ((c as Record<string, unknown>)[field] === null) {
        problems.push({ path: [field], message: "is null, but the case has no expect_error" });
      }
    }
  }
  const tables = c.float32_pow_tables;
  if (tables && c.kind !== "convention" && c.params.chunk_size > 0) {
    const C = c.params.chunk_size;
    expectLength(tables.M_row0, C, ["float32_pow_tables", "M_row0"], `chunk_size = ${C}`);
    expectLength(tables.pow_vec, C, ["float32_pow_tables", "pow_vec"], `chunk_size = ${C}`);
    tables.M_patches?.forEach(([row, col], i) => {
      if (col < row || col >= C) {
        problems.push({
          path: ["float32_pow_tables", "M_patches", i],
          message: `M[${row}][${col}] is not in the upper triangle of a ${C}×${C} kernel`,
        });
      }
    });
  }
  if (c.kind === "reinforce_pp" || c.kind === "convention") {
    const B = c.lengths.length;
    const perSequence = `one per sequence, ${B} lengths`;
    expectLength(c.inputs.rewards, B, ["inputs", "rewards"], perSequence);
    const ragged: [string, unknown[][] | undefined][] = [
      ["inputs.kl", c.inputs.kl],
      ["inputs.loss_masks", c.inputs.loss_masks],
    ];
    const outputs =
      c.kind === "convention" ? ["token_level_rewards", "returns", "advantages"] : ["returns", "token_level_rewards"];
    const recorded =
      c.kind === "convention"
        ? { expected: c.expected, float32: c.float32 }
        : { expected: c.expected, chunked_float32: c.chunked_float32 };
    if (c.kind === "convention") {
      if (c.estimator === "gae" && !c.inputs.values) {
        problems.push({ path: ["inputs", "values"], message: "is required for a gae convention case" });
      }
      if (c.estimator === "gae" && c.params.lambd === undefined) {
        problems.push({ path: ["params", "lambd"], message: "is required for a gae convention case" });
      }
      ragged.push(["inputs.values", c.inputs.values]);
      if (c.reward_index) expectLength(c.reward_index, B, ["reward_index"], perSequence);
    }
    for (const [field, record] of Object.entries(recorded)) {
      for (const name of outputs) {
        ragged.push([`${field}.${name}`, (record as Record<string, number[][]> | null | undefined)?.[name]]);
      }
    }
    for (const [dotted, rows] of ragged) {
      const path = dotted.split(".");
      expectLength(rows, B, path, perSequence);
      rows?.forEach((row, i) => {
        expectLength(row, c.lengths[i] ?? 0, [...path, i], `lengths[${i}]`);
      });
    }
    return problems;
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
  return problems;
}
