import { formatShort } from "../../charts/formatNumber";
import type { PlaygroundResult } from "../compute/playgroundRun";
import type { OpenCaseFile } from "./useImport";

export interface CaseBarProps {
  caseFile: OpenCaseFile;
  result: PlaygroundResult | null;
  computing: boolean;
  onOpen(index: number): void;
  onClose(): void;
}

/**
 * The open case file: a picker for its cases and the case's float32 tolerance. The comparison with
 * the tolerance shows only for a finished run of exactly the case as opened (no edits since).
 */
export function CaseBar({ caseFile, result, computing, onOpen, onClose }: CaseBarProps) {
  const tolerance = caseFile.case.tolerance?.float32;
  // A convention case's tolerance is for its library's outputs, not for slime's scan the results show.
  const judged =
    !computing &&
    result !== null &&
    result.input === caseFile.opened &&
    tolerance !== undefined &&
    caseFile.case.kind !== "convention";
  const within = judged && result.summary.maxAbs <= tolerance;
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
        <span data-testid="case-tolerance">{tolerance === undefined ? "none (uniform rule)" : String(tolerance)}</span>
      </span>
      {judged ? (
        <span className={`chip ${within ? "ok" : "warn"}`} data-testid="case-verdict">
          {within
            ? "✓ max abs error within the tolerance"
            : `▲ max abs error ${formatShort(result.summary.maxAbs)} is over it`}
        </span>
      ) : null}
      <button type="button" className="link-button" onClick={onClose} aria-label="Close the case file">
        ×
      </button>
    </div>
  );
}
