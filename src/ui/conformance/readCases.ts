import { caseConsistencyProblems } from "../../conformance";
import { parseCaseFile } from "../../io/caseFile";
import type { ScanCase } from "../../io/caseSchema";

/**
 * The cases of a chosen file, or an error naming the file and the fault. A file without cases is
 * refused too: its run would end in `0 passed, 0 failed`, which a script reads as success; so is
 * a file that contradicts itself (power tables that do not come from the case's discount).
 */
export function readCases(bytes: Uint8Array | string, fileName: string): ScanCase[] {
  const { cases } = parseCaseFile(bytes, fileName);
  if (cases.length === 0) throw new Error(`${fileName}: the file has no cases, so there is nothing to check`);
  const problems = caseConsistencyProblems(cases);
  if (problems.length > 0) {
    const more = problems.length > 3 ? ` … and ${problems.length - 3} more` : "";
    throw new Error(`${fileName}: the file contradicts itself: ${problems.slice(0, 3).join("; ")}${more}`);
  }
  return cases;
}
