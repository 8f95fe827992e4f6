import { useEffect, useMemo, useState } from "react";
import { benchSearch, benchSettingsFromSearch } from "../../compute/bench/benchAddress";
import { sweepCharts, timeCharts } from "../../compute/bench/benchChartData";
import { markdownReport } from "../../compute/bench/benchTable";
import { panelPlan } from "../../compute/bench/panelSettings";
import { replaceSearch } from "../urlState";
import { BenchControls } from "./BenchControls";
import { BenchResultsTable } from "./BenchResultsTable";
import { SweepChart } from "./SweepCharts";
import { TimeChart } from "./TimeCharts";
import { useBenchRun } from "./useBenchRun";
import "./bench.css";
import { Note } from "../Note";
import { ToolbarButton } from "../ToolbarButton";

/** `/?view=bench`: the engine's strategies timed side by side in this browser, in a worker of the page. */
export function BenchView({ urlProblems = [] }: { urlProblems?: string[] }) {
  const bench = useBenchRun();
  // A link may set the panel (`&rows=8&tokens=4096&chunk=64&reps=7`); what it cannot take is reported.
  const [address] = useState(() => benchSettingsFromSearch(window.location.search));
  const [settings, setSettings] = useState(address.settings);
  // The address follows the panel, so a copied link reopens it as it is (what it could not take is dropped).
  useEffect(() => replaceSearch(benchSearch(settings, window.location.search)), [settings]);
  const notices = [...urlProblems, ...address.problems];
  const [copied, setCopied] = useState<string>();
  const { plan, problems } = panelPlan(settings);
  const { rows, progress, running, report, environment } = bench;
  const times = useMemo(() => timeCharts(rows), [rows]);
  const sweeps = useMemo(() => sweepCharts(rows), [rows]);
  const mainRows = useMemo(() => rows.filter((r) => !r.sweep), [rows]);
  const sweepRows = useMemo(() => rows.filter((r) => r.sweep), [rows]);
  const jsonHref = useMemo(
    () =>
      report
        ? URL.createObjectURL(new Blob([JSON.stringify(report, null, 2)], { type: "application/json" }))
        : undefined,
    [report],
  );

  const run = () => {
    if (plan) bench.start(plan).catch(() => undefined);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(markdownReport(rows).join("\n"));
      setCopied("Copied the tables as markdown.");
    } catch (error) {
      setCopied(`Could not copy: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const percent = progress && progress.total > 0 ? Math.round((100 * progress.done) / progress.total) : 0;

  return (
    <div className="bench-view">
      <header className="bench-intro">
        <h2>Benchmark</h2>
        <p>
          Every engine strategy timed side by side in <em>this</em> browser, in a worker of the page: per-token (the
          loop slime replaced), chunked (slime's scan), two-level, the fused WebGPU kernel, and a plain JavaScript loop
          as the floor. Each row runs once to warm up (shader compilation is not timed), then the median of the runs;
          every run is checked against the float64 serial reference within its error bound.
        </p>
        <p className="bench-env" data-testid="bench-adapter">
          WebGPU adapter:{" "}
          <strong>
            {environment?.adapter ?? (bench.environmentError ? `unknown (${bench.environmentError})` : "asking…")}
          </strong>
          {environment ? <span className="muted"> · {environment.hardwareConcurrency} logical CPUs</span> : null}
        </p>
      </header>

      <Note className="notice bench-url-notice" text={notices} testId="url-notice" />

      <BenchControls
        settings={settings}
        onChange={setSettings}
        running={running}
        problems={problems}
        onRun={run}
        onCancel={bench.cancel}
      />

      <section className="bench-results" aria-busy={running} aria-label="Results" data-testid="bench-results">
        <div className="bench-progress" aria-live="polite">
          {progress ? (
            <>
              <label htmlFor="bench-progress-bar">
                {running
                  ? `Measuring ${progress.done} of ${progress.total || "…"}${progress.current ? `: ${progress.current}` : ""}`
                  : report?.cancelled
                    ? `Stopped after ${report.rows.length} of ${report.planned} rows${report.error ? `: ${report.error}` : " (cancelled)"}.`
                    : `Done: ${rows.length} rows.`}
              </label>
              <progress
                id="bench-progress-bar"
                data-testid="bench-progress"
                max={100}
                value={running ? percent : report?.cancelled ? percent : 100}
              >
                {percent}%
              </progress>
            </>
          ) : (
            <p className="muted">Choose what to measure and press Run benchmark.</p>
          )}
        </div>

        {times.length > 0 ? (
          // One chart per backend; the JS loop on each as the floor. The table below holds every number.
          <div className="bench-charts" data-testid="bench-time-charts">
            {times.map((c) => (
              <TimeChart key={c.backend} {...c} />
            ))}
          </div>
        ) : null}
        {sweeps.length > 0 ? (
          <div data-testid="bench-sweep-charts">
            {sweeps.map((c) => (
              <SweepChart key={c.backend} {...c} />
            ))}
          </div>
        ) : null}
        {rows.length > 0 ? (
          <>
            <div className="bench-export">
              <ToolbarButton onClick={copy} disabled={running}>
                Copy tables as markdown
              </ToolbarButton>
              {jsonHref && !running ? (
                <a href={jsonHref} download="scanlab-bench.json" data-testid="bench-json">
                  Download JSON
                </a>
              ) : null}
              {copied ? (
                <span className="muted small" role="status">
                  {copied}
                </span>
              ) : null}
            </div>
            {mainRows.length > 0 ? (
              <BenchResultsTable
                rows={mainRows}
                caption="Every row: median time, speedup over per-token, error and tensors (before → after)"
                testId="bench-table"
              />
            ) : null}
            {sweepRows.length > 0 ? (
              <BenchResultsTable rows={sweepRows} caption="Chunk-size sweep: every point" testId="bench-sweep-table" />
            ) : null}
          </>
        ) : null}
      </section>
    </div>
  );
}
