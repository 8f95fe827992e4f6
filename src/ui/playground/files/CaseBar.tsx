import { useEffect, useState } from "react";
import { caseVerdictText, judgeOpenCase } from "../../../compute/playground/caseVerdict";
import type { PlaygroundResult } from "../../../compute/playground/playgroundRun";
import type { CaseVerdict } from "../../../conformance/checkCase";
import type { OpenCaseFile } from "./useImport";

export interface CaseBarProps {
  caseFile: OpenCaseFile;
  result: PlaygroundResult | null;
  computing: boolean;
  onOpen(index: number): void;
  onClose(): void;
}

/**
 * The open case file: a picker for its cases, the case's float32 tolerance, and the verdict of the
 * page's own computed outputs against the file's `expected` (conformance's checkCase, as `scanlab
 * check` judges them). The verdict shows only for a finished run of exactly the case as opened (no
 * edits since); a library-convention case is said not to be judged here.
 */
export function CaseBar({ caseFile, result, computing, onOpen, onClose }: CaseBarProps) {
  const tolerance = caseFile.case.tolerance?.float32;
  const judged = !computing && result !== null && result.input === caseFile.opened;
  const convention = caseFile.case.kind === "convention";
  const [verdict, setVerdict] = useState<{ of: PlaygroundResult; verdict: CaseVerdict | null; error?: string } | null>(
    null,
  );
  useEffect(() => {
    if (!judged || convention) return;
    let live = true;
    judgeOpenCase(caseFile.case, result)
      .then((v) => {
        if (live) setVerdict({ of: result, verdict: v });
      })
      .catch((error: unknown) => {
        const detail = error instanceof Error ? error.message : String(error);
        if (live) setVerdict({ of: result, verdict: null, error: detail });
      });
    return () => {
      live = false;
    };
  }, [judged, convention, caseFile.case, result]);
  // Only a verdict of the run on screen; none while a newer one computes.
  const current = judged && verdict?.of === result ? verdict : null;
  const shown = current?.verdict ?? null;
  return (
    <div className="case-bar" data-testid="case-bar">
      <label>
        <span className="muted">{caseFile.fileName}:</span>{" "}
        <select
          value={caseFile.index}
          data-testid="case-select"
          onChange={(event) => onOpen(Number(event.currentTarget.value))}
        >
          {caseFile.imported.cases.map((c) => (
            <option key={c.index} value={c.index}>
              {c.name} ({c.kind}, {c.shape})
            </option>
          ))}
        </select>
      </label>
      <span className="num">
        {caseFile.imported.cases.length > 1 ? `case ${caseFile.index + 1} of ${caseFile.imported.cases.length} · ` : ""}
        tolerance float32{" "}
        <span data-testid="case-tolerance">
          {tolerance === undefined ? "none (each element's bound)" : String(tolerance)}
        </span>
      </span>
      {shown ? (
        <span className={`chip ${shown.passed ? "ok" : "warn"}`} data-testid="case-verdict">
          {caseVerdictText(shown)}
        </span>
      ) : current?.error ? (
        <span className="chip warn" data-testid="case-verdict">
          ▲ not judged: {current.error}
        </span>
      ) : judged && convention ? (
        <span className="chip" data-testid="case-verdict">
          not judged here: the page shows slime's scan of this library-convention case; npx scanlab check judges the
          library's outputs
        </span>
      ) : null}
      <button type="button" className="link-button" onClick={onClose} aria-label="Close the case file">
        ×
      </button>
    </div>
  );
}
