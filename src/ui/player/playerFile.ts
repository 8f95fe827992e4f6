import { parseCaseFile } from "../../io/caseFile";
import type { CaseFile } from "../../io/caseSchema";
import { caseCells, caseRows, MAX_PLAYER_CELLS, playerSizeProblem } from "./playerLimits";
import { playableCases } from "./source";

/**
 * A case file as the player takes it: parsed and validated (in a worker: 200 MB of JSON take
 * seconds), keeping only the cases it can replay (one chunked scan each, within its size limit),
 * so that only those cross back to the page. `leftOut` says which were too large; an error names
 * the file when nothing in it can be replayed.
 */
export function readPlayerFile(bytes: Uint8Array, fileName: string): { file: CaseFile; leftOut: string | null } {
  const parsed = parseCaseFile(bytes, fileName);
  const playable = playableCases(parsed);
  if (playable.length === 0) {
    throw new Error(
      `${fileName}: no case in it is one chunked scan (library-convention cases and expected errors cannot be replayed)`,
    );
  }
  const fits = playable.filter(({ case: c }) => caseCells(c) <= MAX_PLAYER_CELLS);
  const tooLarge = playable.filter(({ case: c }) => caseCells(c) > MAX_PLAYER_CELLS);
  const first = tooLarge[0]?.case;
  const firstProblem = first ? playerSizeProblem(caseCells(first), `case ${first.name}`, caseRows(first)) : null;
  if (fits.length === 0) throw new Error(`${fileName}: ${firstProblem}`);
  const more = tooLarge.length > 1 ? ` (and ${tooLarge.length - 1} more case${tooLarge.length > 2 ? "s" : ""})` : "";
  const leftOut = firstProblem ? `${fileName}: left out ${firstProblem}${more}.` : null;
  return { file: { ...parsed, cases: fits.map(({ case: c }) => c) }, leftOut };
}
