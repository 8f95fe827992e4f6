import { parseCaseFile } from "../../io/caseFile";
import type { CaseFile } from "../../io/caseSchema";
import { caseSize, chunkSizeProblem, playerSizeProblem } from "./playerLimits";
import { playableCases } from "./source";

/** Left-out cases named one by one, at most (the command's own rule), then a count. */
const LISTED = 10;

/**
 * A case file as the player takes it: parsed and validated (in a worker: 200 MB of JSON take
 * seconds), keeping only the cases it can replay (one chunked scan each, with a chunk size the
 * reference accepts, within its size limits), so that only those cross back to the page.
 * `leftOut` names every case left out and why (up to 10, then a count); an error names the file
 * when nothing in it can be replayed.
 */
export function readPlayerFile(bytes: Uint8Array, fileName: string): { file: CaseFile; leftOut: string | null } {
  const parsed = parseCaseFile(bytes, fileName);
  const playable = playableCases(parsed);
  if (playable.length === 0) {
    throw new Error(
      `${fileName}: no case in it is one chunked scan (library-convention cases and expected errors cannot be replayed)`,
    );
  }
  const problems = playable.map(
    ({ case: c }) => chunkSizeProblem(c) ?? playerSizeProblem(caseSize(c), `case ${c.name}`),
  );
  const fits = playable.filter((_, i) => problems[i] === null);
  const refused = problems.filter((p): p is string => p !== null);
  if (fits.length === 0) throw new Error(`${fileName}: ${listed(refused)}`);
  const leftOut = refused.length > 0 ? `${fileName}: left out ${listed(refused)}.` : null;
  return { file: { ...parsed, cases: fits.map(({ case: c }) => c) }, leftOut };
}

function listed(problems: string[]): string {
  const shown = problems.slice(0, LISTED).join("; ");
  const more = problems.length - LISTED;
  return more > 0 ? `${shown}; … and ${more} more case${more === 1 ? "" : "s"}` : shown;
}
