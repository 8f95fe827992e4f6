/**
 * NaN and ±Inf in what a user brings (a training dump often has them): where they are, named by
 * row and token, and what each scan will make of them, the lesson of ALGORITHM.md §b.4.
 *
 * The serial loop `G_t = r_t + γ·G_{t+1}` spreads a non-finite value only backwards in time: token
 * t and every token before it. slime's chunked scan reverses time, pads to whole chunks and
 * multiplies each chunk by the Toeplitz matrix of discount powers: a NaN times the matrix's zeros
 * is still NaN, so the whole chunk's local scan is poisoned, tokens after t included; its last
 * value is the carry into every later chunk (in reversed time), so everything before the chunk
 * (in original time) is poisoned too. The cells the chunked scan loses and the serial loop keeps
 * are the tokens after t up to the end of t's chunk.
 */

/** One non-finite input: its row and token (counted from 0) and the value. */
export interface NonFiniteCell {
  row: number;
  token: number;
  value: number;
}

/** Every non-finite value of some rows, in row then token order, up to `max` of them. */
export function findNonFinite(rows: ArrayLike<number>[], max = 1000): NonFiniteCell[] {
  const found: NonFiniteCell[] = [];
  for (const [row, values] of rows.entries()) {
    for (let token = 0; token < values.length; token++) {
      const value = values[token];
      if (Number.isFinite(value)) continue;
      found.push({ row, token, value });
      if (found.length >= max) return found;
    }
  }
  return found;
}

/** The sentence that reports them: `rewards: NaN at row 2, token 17; Infinity at row 3, token 0 (and 4 more)`. */
export function describeNonFinite(cells: NonFiniteCell[], lane: string, listed = 3): string {
  if (cells.length === 0) return "";
  const shown = cells.slice(0, listed).map((c) => `${String(c.value)} at row ${c.row}, token ${c.token}`);
  const more = cells.length > listed ? ` (and ${cells.length - listed} more)` : "";
  return `${lane}: ${shown.join("; ")}${more}`;
}

/** The tokens of one row each scan leaves non-finite, as `[0, last]` in original time (`last` −1: none). */
export interface Spread {
  serialLast: number;
  chunkedLast: number;
}

/**
 * Where the non-finite values at `tokens` of a row of `length` tokens end up: the serial loop
 * poisons tokens 0…max(t); the chunked scan with chunks of `chunkSize` poisons tokens 0 up to the
 * last token (in original time) of the chunk holding each t, in slime's reversed, padded layout.
 */
export function nonFiniteSpread(length: number, chunkSize: number, tokens: number[]): Spread {
  let serialLast = -1;
  let chunkedLast = -1;
  for (const t of tokens) {
    if (t < 0 || t >= length) continue;
    serialLast = Math.max(serialLast, t);
    const chunk = Math.floor((length - 1 - t) / chunkSize); // in reversed time
    chunkedLast = Math.max(chunkedLast, length - 1 - chunk * chunkSize);
  }
  return { serialLast, chunkedLast };
}

/** The lesson in one sentence, for the cells the chunked scan loses that the serial loop keeps. */
export function spreadLesson(spread: Spread, chunkSize: number): string {
  if (spread.serialLast < 0) return "";
  const lost = spread.chunkedLast - spread.serialLast;
  const serial = `the serial loop carries it back to tokens 0–${spread.serialLast} only`;
  if (lost === 0) return `A non-finite input poisons tokens 0–${spread.chunkedLast} in both scans: ${serial}.`;
  return `The chunked scan poisons tokens 0–${spread.chunkedLast}: its whole chunk of ${chunkSize} (NaN times the discount matrix's zeros is still NaN) and, through the carries, everything before it; ${serial}, so ${lost} token${lost === 1 ? "" : "s"} after it differ.`;
}

/**
 * The NaN and ±Inf of what a library convention reads (KL, values, the outcome reward of each row),
 * named by lane, row and token, or null when all are finite.
 */
export function describeConventionNonFinite(batch: {
  rewards: ArrayLike<number>;
  kl: ArrayLike<number>[];
  values?: ArrayLike<number>[];
}): string | null {
  const parts: string[] = [];
  const kl = findNonFinite(batch.kl);
  if (kl.length > 0) parts.push(describeNonFinite(kl, "kl"));
  const values = findNonFinite(batch.values ?? []);
  if (values.length > 0) parts.push(describeNonFinite(values, "values"));
  const outcomes = findNonFinite([batch.rewards]);
  if (outcomes.length > 0) {
    const listed = outcomes.slice(0, 3).map((c) => `${String(c.value)} at row ${c.token}`);
    const more = outcomes.length > 3 ? ` (and ${outcomes.length - 3} more)` : "";
    parts.push(`outcome: ${listed.join("; ")}${more}`);
  }
  return parts.length > 0 ? parts.join("; ") : null;
}
