import type { ScanCase } from "../../io/caseSchema";
import { countText } from "../../io/countText";
import type { PlaygroundState } from "../../io/playgroundState";
import type { PlayerSource } from "./source";

/**
 * The most cells (rows × the padded row length) the player replays. Its trace, error bounds and
 * serial reference are built on the page's thread: 2^16 cells take about a third of a second on the
 * loaded 2-core machine, 64 × 32768 took tasks of 2–4 s. A bigger batch is for the conformance
 * view (which judges it in a worker) or the playground; the player teaches on a few rows.
 */
export const MAX_PLAYER_CELLS = 2 ** 16;

/** Cells of a scan case: B × T, or B × the longest row of a ragged batch. */
export function caseCells(c: ScanCase): number {
  if (c.kind === "discounted" || c.kind === "gae") return c.shape[0] * c.shape[1];
  return c.lengths.length * Math.max(0, ...c.lengths);
}

export function caseRows(c: ScanCase): number {
  return "shape" in c ? c.shape[0] : c.lengths.length;
}

/** Rows and cells of a playground state, read from its data without drawing the rows. */
export function stateSize(state: PlaygroundState): { rows: number; cells: number } {
  const { data } = state;
  if (data.source === "preset") return { rows: data.rows, cells: data.rows * data.tokens };
  const longest = data.rows.reduce((max, row) => Math.max(max, row.length), 0);
  return { rows: data.rows.length, cells: data.rows.length * longest };
}

/** Why the player will not replay a source (too large), before any of it is built; null when it fits. */
export function sourceSizeProblem(source: PlayerSource): string | null {
  if (source.kind === "state") {
    const { rows, cells } = stateSize(source.state);
    return playerSizeProblem(cells, "This batch", rows);
  }
  const c = source.file.cases[source.index];
  return c && c.kind !== "convention" ? playerSizeProblem(caseCells(c), `Case ${c.name}`, caseRows(c)) : null;
}

/** Why a batch is too large for the player, naming the limit and the size asked for; null when it fits. */
export function playerSizeProblem(cells: number, what: string, rows: number): string | null {
  if (cells <= MAX_PLAYER_CELLS) return null;
  return `${what} has ${rows} × ${Math.round(cells / Math.max(1, rows))} = ${countText(cells)} cells; the player replays at most ${countText(MAX_PLAYER_CELLS)} (check a batch this large in the conformance view or the playground)`;
}
