import type { CaseFile, ScanCase } from "./caseSchema";

/**
 * A file's cases for a caller that runs scans only (the golden files' tests, the engine's checks):
 * a slime_dump case there is a mistake to report, not a case to skip in silence.
 */
export function scanCasesOf(file: CaseFile): ScanCase[] {
  return file.cases.map((c, i) => {
    if (c.kind === "slime_dump") throw new Error(`cases[${i}] (${c.name}) is a slime_dump case, not a scan`);
    return c;
  });
}
