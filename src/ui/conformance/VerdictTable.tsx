import type { ScanCase } from "../../io/caseSchema";
import type { CaseRow } from "./runConformance";

export interface VerdictTableProps {
  cases: ScanCase[];
  /** Indexed like `cases`; a hole is a case not finished yet. */
  rows: (CaseRow | undefined)[];
}

/** One line per case, filled in as the engine finishes it. */
export function VerdictTable({ cases, rows }: VerdictTableProps) {
  return (
    <table className="verdict-table" data-testid="verdict-table">
      <thead>
        <tr>
          <th scope="col">case</th>
          <th scope="col">kind</th>
          <th scope="col">shape</th>
          <th scope="col">max abs error</th>
          <th scope="col">tolerance (float32)</th>
          <th scope="col">time</th>
          <th scope="col">result</th>
        </tr>
      </thead>
      <tbody>
        {cases.map((c, i) => {
          const row = rows[i];
          const verdict = row?.verdict;
          const state = verdict ? (verdict.passed ? "pass" : "fail") : "pending";
          return (
            <tr key={c.name} className={state} data-testid="verdict-row" data-state={state}>
              <td className="case-name">{c.name}</td>
              <td>{c.kind}</td>
              <td>{verdict?.shape ?? ""}</td>
              <td className="number">{formatError(verdict?.maxAbsError)}</td>
              <td className="number">{formatError(verdict?.tolerance)}</td>
              <td className="number">{row?.millis === undefined ? "" : `${row.millis.toFixed(1)} ms`}</td>
              <td title={verdict?.detail || undefined}>
                {verdict ? (verdict.passed ? "pass" : "FAIL") : "…"}
                {verdict?.detail ? <span className="detail"> {verdict.detail}</span> : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function formatError(value: number | null | undefined): string {
  if (value === undefined || value === null) return "";
  if (value === 0) return "0";
  return value.toExponential(2);
}
