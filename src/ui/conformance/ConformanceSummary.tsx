export interface ConformanceSummaryProps {
  /** `N passed, M failed` once the run is over; null while it runs or before any. */
  summary: string | null;
  done: number;
  total: number;
  running: boolean;
  /** The backend that really ran the cases (from the worker), or the one that came up. */
  backend: string | null;
  fileName: string | null;
}

/** The run's state in one line each: what ran where, and the closing `N passed, M failed`. */
export function ConformanceSummary({ summary, done, total, running, backend, fileName }: ConformanceSummaryProps) {
  return (
    <section className="conformance-summary" aria-live="polite">
      <p>
        Backend: <strong data-testid="backend">{backend ?? "not started"}</strong>
        {fileName ? (
          <>
            {" "}
            · File: <span data-testid="case-file-name">{fileName}</span>
          </>
        ) : null}
      </p>
      {running ? (
        <p data-testid="conformance-progress">
          Running: {done} of {total} cases checked…
        </p>
      ) : null}
      {summary !== null ? (
        <p className="summary-line" data-testid="conformance-summary">
          {summary}
        </p>
      ) : null}
    </section>
  );
}
