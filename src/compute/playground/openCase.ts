import { type CaseImport, openCase } from "../../io/caseImport";
import type { ScanCase } from "../../io/caseSchema";
import { openConventionCase } from "../../io/conventionCaseImport";
import type { IoResult } from "../../io/ioError";
import type { PlaygroundState } from "../../io/playgroundState";

/**
 * Case `index` of a file as a playground state: a library-convention case opens as that library's
 * convention (io's openConventionCase), so exporting it again gives the same case; every other
 * kind as io's openCase opens it.
 */
export function openAnyCase(
  imported: CaseImport,
  index: number,
  current: PlaygroundState,
  source: string,
): IoResult<{ state: PlaygroundState; case: ScanCase }> {
  const c = imported.file.cases[index];
  if (c?.kind !== "convention") return openCase(imported, index, current, source);
  const opened = openConventionCase(c, index, current, source);
  return opened.ok ? { ok: true, value: { state: opened.value, case: c }, notes: opened.notes } : opened;
}
