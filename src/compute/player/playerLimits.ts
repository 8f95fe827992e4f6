import { ScanInputError } from "../../core";
import type { ScanCase } from "../../io/caseSchema";
import { countText } from "../../io/countText";
import type { PlaygroundState } from "../../io/playgroundState";
import type { PlayerSource } from "./source";

/**
 * The most cells of the padded scan (rows × chunks × chunk size) the player replays. Its trace,
 * error bounds and serial reference are built on the page's thread and every lane draws a whole
 * chunk: 2^16 cells take about a third of a second on the loaded 2-core machine, 64 × 32768 took
 * tasks of 2–4 s. A bigger batch is for the conformance view (which judges it in a worker) or the
 * playground; the player teaches on a few rows.
 */
export const MAX_PLAYER_CELLS = 2 ** 16;

/**
 * The largest discount matrix (C × C) the player's scan builds, which also bounds the chunk every
 * lane draws whole. The padded scan alone does not bound it: 1 row of 2 tokens with chunk size
 * 16384 is one chunk of 16384 cells but a matrix of 2.7e8 entries, and froze the page for 11 s
 * (2^20: over 15 minutes). Measured on the loaded 2-core machine, two tokens in chunks of 512 open
 * in 1.9 s with 0.5 s for the last step; 1024: 2.1 s and 2.4 s; 4096: 6 s and 5 s. 2^18 is chunks up to 512.
 */
export const MAX_PLAYER_MATRIX = 2 ** 18;

/** The size of a scan as the player replays it: rows, the padded row length and the chunk size. */
export interface ScanSize {
  rows: number;
  /** T, or the longest row of a ragged batch (slime pads to it). */
  tokens: number;
  chunkSize: number;
}

/** Padded work: rows × ⌈T / C⌉ chunks × C cells, and the C × C matrix. */
export function paddedWork({ rows, tokens, chunkSize }: ScanSize): { chunks: number; cells: number; matrix: number } {
  const C = Math.max(1, chunkSize);
  const chunks = Math.ceil(tokens / C);
  return { chunks, cells: rows * chunks * C, matrix: C * C };
}

/** Rows, tokens and chunk size of a scan case. */
export function caseSize(c: ScanCase): ScanSize {
  if (c.kind === "discounted" || c.kind === "gae") {
    return { rows: c.shape[0], tokens: c.shape[1], chunkSize: c.params.chunk_size };
  }
  if (c.kind === "reinforce_pp") {
    return { rows: c.lengths.length, tokens: Math.max(0, ...c.lengths), chunkSize: c.params.chunk_size };
  }
  return { rows: c.lengths.length, tokens: Math.max(0, ...c.lengths), chunkSize: 128 };
}

/** Rows, tokens and chunk size of a playground state, read from its data without drawing the rows. */
export function stateSize(state: PlaygroundState): ScanSize {
  const { data } = state;
  if (data.source === "preset") return { rows: data.rows, tokens: data.tokens, chunkSize: state.chunkSize };
  const longest = data.rows.reduce((max, row) => Math.max(max, row.length), 0);
  return { rows: data.rows.length, tokens: longest, chunkSize: state.chunkSize };
}

/** Why the player will not replay a source (too large), before any of it is built; null when it fits. */
export function sourceSizeProblem(source: PlayerSource): string | null {
  if (source.kind === "state") return playerSizeProblem(stateSize(source.state), stateName(source));
  const c = source.file.cases[source.index];
  if (!c || c.kind === "convention" || c.kind === "slime_dump") return null;
  const problem = chunkSizeProblem(c) ?? playerSizeProblem(caseSize(c), `case ${c.name}`);
  return problem ? `${source.fileName}: ${problem}` : null;
}

/** How a state source is named in a refusal: the batch, or the one row of a larger batch it replays. */
function stateName(source: Extract<PlayerSource, { kind: "state" }>): string {
  const { focus } = source;
  return focus
    ? `Row ${focus.row} of ${focus.rows} (the row the playground had in focus; the player replays it alone)`
    : "This batch";
}

/**
 * Why a batch is too large for the player, by its padded work (rows × chunks × chunk size) and its
 * C × C discount matrix, naming the limit and the size asked for; null when it fits.
 */
export function playerSizeProblem(size: ScanSize, what: string): string | null {
  // Nothing to step through: every caption would name a token that does not exist (t = −1).
  if (size.rows === 0 || size.tokens === 0) {
    return `${what} has no tokens (${size.rows} row${size.rows === 1 ? "" : "s"}, none longer than 0): there is no scan to replay`;
  }
  const { chunks, cells, matrix } = paddedWork(size);
  const C = Math.max(1, size.chunkSize);
  const where = "(check a batch this large in the conformance view or with npx scanlab check)";
  if (cells > MAX_PLAYER_CELLS) {
    const shape = `${size.rows} × ${size.tokens} tokens in chunks of ${countText(C)}`;
    return `${what} has ${shape}: ${size.rows} × ${countText(chunks)} chunk${chunks === 1 ? "" : "s"} × ${countText(C)} = ${countText(cells)} padded cells; the player replays at most ${countText(MAX_PLAYER_CELLS)} ${where}`;
  }
  if (matrix > MAX_PLAYER_MATRIX) {
    const side = Math.sqrt(MAX_PLAYER_MATRIX);
    return `${what} has chunks of ${countText(C)}: a ${countText(C)} × ${countText(C)} discount matrix (${countText(matrix)} entries), each chunk drawn whole; the player builds at most ${countText(side)} × ${countText(side)} (chunk size up to ${countText(side)}) ${where}`;
  }
  return null;
}

/**
 * A chunk size the reference itself refuses (slime's `T % chunk_size` with 0), named by case and
 * field: there is no scan to replay. Null for a chunk size of at least 1.
 */
export function chunkSizeProblem(c: ScanCase): string | null {
  if (c.kind === "convention") return null;
  const C = c.params.chunk_size;
  if (Number.isInteger(C) && C >= 1) return null;
  const raised = C === 0 ? "slime raises ZeroDivisionError: integer modulo by zero" : "slime cannot chunk by it";
  return `case ${c.name}: params.chunk_size is ${C}: ${raised}, so there is no scan to replay`;
}

/**
 * A failed replay's message, naming what was replayed (the file and case, or the batch) when the
 * message does not already: "integer modulo by zero" alone said neither which file nor which case.
 */
export function playerErrorText(source: PlayerSource, error: unknown): string {
  const message =
    error instanceof ScanInputError ? error.referenceText : error instanceof Error ? error.message : String(error);
  const c = source.kind === "case" ? source.file.cases[source.index] : undefined;
  const where = source.kind === "case" ? `${source.fileName}: case ${c?.name ?? source.index}` : source.label;
  const own = source.kind === "case" ? source.fileName : stateName(source);
  if (message.startsWith(own)) return message;
  return `${where}: ${message}`;
}
