import { memo } from "react";
import { formatShort } from "../../charts/formatNumber";
import type { PlaygroundResult } from "../compute/playgroundRun";
import { OUTPUT_LABELS } from "./labels";

export interface SummaryPanelProps {
  result: PlaygroundResult | null;
  computing: boolean;
  slow: boolean;
  onWorstCell(row: number, token: number): void;
}

/** A figure as plain text a script can parse with Number(), 6 significant digits. */
export function plainNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return "0";
  return String(Number(x.toPrecision(6)));
}

function millis(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

/**
 * The whole batch's figures from the last finished run. While a newer run computes they stay,
 * dimmed, and the panel says so (aria-busy); nothing here is ever from an unfinished run.
 */
export const SummaryPanel = memo(function SummaryPanel({ result, computing, slow, onWorstCell }: SummaryPanelProps) {
  if (!result) {
    return (
      <section className="panel summary" aria-busy={computing} aria-labelledby="pg-summary-title">
        <h2 id="pg-summary-title">Summary</h2>
        <p className="muted">{computing ? "Computing the first result…" : "No result yet."}</p>
      </section>
    );
  }
  const { summary, ran } = result;
  const worst = summary.worst;
  return (
    <section
      className={`panel summary${computing ? " stale" : ""}`}
      aria-busy={computing}
      aria-labelledby="pg-summary-title"
    >
      <h2 id="pg-summary-title">
        Summary {slow ? <span className="spinner" role="status" aria-label="computing" /> : null}
      </h2>
      <dl className="figures num">
        <dt>max abs error</dt>
        <dd data-testid="max-abs-error" title={String(summary.maxAbs)}>
          {plainNumber(summary.maxAbs)}
        </dd>
        <dt>max rel error</dt>
        <dd data-testid="max-rel-error" title={String(summary.maxRel)}>
          {formatShort(summary.maxRel)}
        </dd>
        <dt>max ulps</dt>
        <dd data-testid="max-ulps">{String(summary.maxUlps)}</dd>
        <dt>cells over bound</dt>
        <dd data-testid="cells-over-bound" className={summary.overBound ? "alert" : ""}>
          {summary.overBound === null
            ? "–"
            : `${summary.overBound ? "▲ " : ""}${summary.overBound} of ${summary.cells.toLocaleString("en-US")}`}
        </dd>
      </dl>
      {worst && summary.maxAbs > 0 ? (
        <button type="button" className="worst" onClick={() => onWorstCell(worst.row, worst.token)}>
          Worst cell: row {worst.row}, token {worst.token} ({OUTPUT_LABELS[worst.output]})
        </button>
      ) : null}
      <dl className="ran num">
        <dt>backend</dt>
        <dd data-testid="backend">{ran.backend}</dd>
        <dt>strategy</dt>
        <dd data-testid="strategy">{ran.strategy}</dd>
        <dt>chunk size</dt>
        <dd>{ran.chunkSize}</dd>
        <dt>chunked</dt>
        <dd data-testid="run-time">{millis(ran.millis)}</dd>
        <dt>serial ×2</dt>
        <dd>{millis(ran.serialMillis)}</dd>
      </dl>
      {computing ? <p className="muted small">Recomputing; these figures are from the previous run.</p> : null}
    </section>
  );
});
