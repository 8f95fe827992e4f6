import type { AdapterInfo } from "../../engine/backendNames";

export interface ConformanceSummaryProps {
  /** `N passed, M failed` once the run is over; null while it runs or before any. */
  summary: string | null;
  done: number;
  total: number;
  running: boolean;
  /** The backend that really ran the cases (from the worker), or the one that came up. */
  backend: string | null;
  /** The WebGPU adapter, when webgpu runs. */
  adapter: AdapterInfo | null;
  fileName: string | null;
}

/** The run's state in one line each: what ran where, and the closing `N passed, M failed`. */
export function ConformanceSummary({
  summary,
  done,
  total,
  running,
  backend,
  adapter,
  fileName,
}: ConformanceSummaryProps) {
  return (
    <section className="conformance-summary" aria-live="polite">
      <p>
        Backend: <strong data-testid="backend">{backend ?? "not started"}</strong>
        {adapter ? (
          <>
            {" "}
            · Adapter: <span data-testid="adapter">{describeAdapter(adapter)}</span>
          </>
        ) : null}
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

/** `google swiftshader (fallback adapter: a software renderer, no GPU)`. */
export function describeAdapter(adapter: AdapterInfo): string {
  const name = [adapter.vendor, adapter.architecture, adapter.description].filter(Boolean).join(" ") || "unnamed";
  return adapter.isFallbackAdapter ? `${name} (fallback adapter: a software renderer, no GPU)` : name;
}
