import { caseConsistencyProblems, nothingToCheck } from "../../conformance";
import { parseCaseFile } from "../../io/caseFile";
import type { GoldenCase } from "../../io/caseSchema";

/**
 * The cases of a chosen file, or an error naming the file and the fault. A file without cases, or
 * whose cases have no value to compare (shape [0, 5]), is refused too: its run would end in
 * `N passed, 0 failed`, which a script reads as success; so is
 * a file that contradicts itself (power tables that do not come from the case's discount).
 */
export function readCases(bytes: Uint8Array | string, fileName: string): GoldenCase[] {
  const { cases } = parseCaseFile(bytes, fileName);
  if (cases.length === 0) throw new Error(`${fileName}: the file has no cases, so there is nothing to check`);
  // The command's own rule: a run of nothing would end in "N passed, 0 failed".
  const nothing = nothingToCheck(cases, fileName);
  if (nothing) throw new Error(nothing);
  const problems = caseConsistencyProblems(cases);
  if (problems.length > 0) {
    // As the command lists them: every problem up to 10, then a count.
    const more = problems.length > 10 ? `; … and ${problems.length - 10} more problems` : "";
    throw new Error(`${fileName}: the file contradicts itself: ${problems.slice(0, 10).join("; ")}${more}`);
  }
  return cases;
}
