import { useMemo, useState } from "react";
import {
  cancelledLine,
  listedCases,
  progressLine,
  type RunState,
  shownSummary,
  showsTable,
} from "../../compute/conformance/runState";
import { useNow } from "../useNow";
import { VerdictTable } from "./VerdictTable";

export interface ConformanceResultsProps {
  state: RunState;
  busy: boolean;
}

/**
 * The run's results: the progress or the closing `N passed, M failed`, and the verdict table.
 * While a new file is read or a run goes on, nothing here is a finished run's verdict: the box
 * says so with aria-busy, and `conformance-summary` is not in the page.
 */
export function ConformanceResults({ state, busy }: ConformanceResultsProps) {
  const [failuresOnly, setFailuresOnly] = useState(false);
  const summary = shownSummary(state);
  const now = useNow(busy);
  const progress = progressLine(state, busy ? now : undefined);
  const cancelled = cancelledLine(state);
  const table = showsTable(state);
  const listed = useMemo(() => listedCases(state, failuresOnly), [state, failuresOnly]);
  return (
    <section className="conformance-results" aria-busy={busy} aria-label="Results" data-testid="conformance-results">
      <div className="run-line" aria-live="polite">
        {state.fileName && table ? (
          <p>
            File: <span data-testid="case-file-name">{state.fileName}</span>
          </p>
        ) : null}
        {progress !== null ? (
          <p
            className={state.phase === "stopped" && !state.reading ? "stopped-line" : "progress-line"}
            data-testid={busy ? "conformance-progress" : "conformance-stopped"}
          >
            {progress}
          </p>
        ) : null}
        {cancelled !== null ? (
          <p className="stopped-line" data-testid="conformance-cancelled">
            {cancelled}
          </p>
        ) : null}
        {summary !== null ? (
          <p className="summary-line" data-testid="conformance-summary">
            {summary}
          </p>
        ) : null}
        {table ? (
          <label className="failures-only">
            <input
              type="checkbox"
              data-testid="failures-only"
              checked={failuresOnly}
              onChange={(event) => setFailuresOnly(event.currentTarget.checked)}
            />{" "}
            Show failures only ({state.failed})
          </label>
        ) : null}
      </div>
      {table ? (
        <VerdictTable
          cases={state.cases}
          rows={state.rows}
          listed={listed}
          emptyText={state.phase === "running" ? "No case has failed so far." : "No case failed."}
        />
      ) : null}
    </section>
  );
}
