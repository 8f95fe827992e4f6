import { parseCaseFile } from "../../io/caseFile";
import type { ScanCase } from "../../io/caseSchema";

/**
 * The cases of a chosen file, or an error naming the file and the fault. A file without cases is
 * refused too: its run would end in `0 passed, 0 failed`, which a script reads as success.
 */
export function readCases(text: string, fileName: string): ScanCase[] {
  const { cases } = parseCaseFile(text, fileName);
  if (cases.length === 0) throw new Error(`${fileName}: the file has no cases, so there is nothing to check`);
  return cases;
}
