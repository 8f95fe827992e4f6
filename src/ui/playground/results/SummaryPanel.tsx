import { memo } from "react";
import type { ErrorSummary } from "../../../compute/playground/errorSummary";
import { OUTPUT_LABELS } from "../../../compute/playground/outputLabels";
import { type PlaygroundResult, progressText } from "../../../compute/playground/playgroundRun";
import { cellName, millis, nonFiniteCount, plainNumber, verdictText } from "../../../compute/playground/summaryWords";
import { countText } from "../../../io/countText";
import { formatShort } from "../../../io/formatNumber";
import type { PlaygroundPrecision } from "../../../io/playgroundState";
import { Term } from "../../glossary/Term";
import { ToolbarButton } from "../../ToolbarButton";
import { useNow } from "../../useNow";
import type { ComputeStatus } from "../usePlaygroundCompute";

export interface SummaryPanelProps {
  result: PlaygroundResult | null;
  status: ComputeStatus;
  /** The result is of the inputs on screen (core's result of an edit is, while the engine computes). */
  current: boolean;
  onWorstCell(row: number, token: number): void;
}

/** What the run in flight is doing, for how long, and a way to stop it; or why the figures are old. */
function RunState({ status }: { status: ComputeStatus }) {
  // Said once the run is slow, or while nothing is on screen: a quick run (core's figures already
  // shown, the engine's on their way) would only flash a line.
  const busy = status.computing && status.startedAt !== null && (status.slow || status.result === null);
  const now = useNow(busy);
  if (busy) {
    return (
      <div className="run-progress" data-testid="run-progress">
        <p className="small" role="status" data-testid="run-phase">
          {progressText(status.phase, Math.max(0, now - (status.startedAt ?? now)))}
        </p>
        <ToolbarButton onClick={status.cancel} testId="cancel-run" title="Stop this run; the figures on screen stay">
          Cancel
        </ToolbarButton>
      </div>
    );
  }
  if (!status.cancelled && !status.behind) return null;
  return (
    <div className="run-progress" data-testid="run-behind">
      <p className="small alert" role="status">
        {status.cancelled ? "Run cancelled. " : "The newest run failed. "}
        {status.result
          ? "These figures, the charts and the heatmap are of the previous batch and settings, not of the inputs in the editor."
          : "No result yet."}
      </p>
      {status.cancelled ? (
        <button type="button" onClick={status.rerun} data-testid="rerun">
          Run again
        </button>
      ) : null}
    </div>
  );
}

/**
 * The figures in words, under them: what the verdict is (each cell against its own bound), and why
 * the relative error and the ulps are shown but never judged (docs/glossary.md's words).
 */
function FiguresExplained({ summary, precision }: { summary: ErrorSummary; precision: PlaygroundPrecision }) {
  const bits = precision === "float64" ? "float64" : "float32";
  const over = summary.overBound;
  return (
    <div className="figures-explained small" data-testid="summary-explained">
      <p>
        <strong>{verdictText(over, summary.cells, summary.lost + summary.unbounded)}</strong> Each cell is held to its
        own {bits} error bound, the most a correct {bits} scan can be off there.
      </p>
      <p>
        Relative error and ulps are shown, not judged: where the reference is near 0 (a return crossing zero, or tiny
        beside its neighbours) a last-bit difference makes them huge.
      </p>
      <details>
        <summary>What each figure means</summary>
        <dl>
          <dt>max abs error</dt>
          <dd>the largest |chunked − serial float64| over every cell.</dd>
          <dt>bound there</dt>
          <dd>the bound of that same cell: a batch within its bounds has max abs error ≤ bound there.</dd>
          <dt>worst error / bound</dt>
          <dd>the largest error as a fraction of its own cell's bound (at most 1 when every cell is within).</dd>
          <dt>max rel error</dt>
          <dd>
            the error ÷ |reference|, the reference floored at one epsilon of the batch's largest value, so 0 does not
            divide.
          </dd>
          <dt>max ulps</dt>
          <dd>
            how many {bits} numbers lie between the result and the reference (1 ulp of 1.0 is{" "}
            {bits === "float64" ? "2⁻⁵²" : "2⁻²³"}); near 0 the numbers are dense, so a tiny error spans many.
          </dd>
          <dt>cells over bound</dt>
          <dd>the verdict: cells whose error is above their bound (NaN or ±Inf where the reference is finite is).</dd>
        </dl>
      </details>
    </div>
  );
}

/**
 * The whole batch's figures from the last finished run. While a newer run computes they stay,
 * dimmed, and the panel says so (aria-busy); nothing here is ever from an unfinished run.
 */
export const SummaryPanel = memo(function SummaryPanel({ result, status, current, onWorstCell }: SummaryPanelProps) {
  const { computing, slow } = status;
  const old = computing && !current;
  if (!result) {
    return (
      <section className="panel summary" aria-busy={computing} aria-labelledby="pg-summary-title">
        <h2 id="pg-summary-title">Summary</h2>
        <p className="muted">{computing ? "Computing the first result…" : "No result yet."}</p>
        <RunState status={status} />
      </section>
    );
  }
  const { summary, ran } = result;
  const worst = summary.worst;
  const worstFraction = summary.worstFraction;
  const overAtMax = summary.boundAtMax !== null && !(summary.maxAbs <= summary.boundAtMax);
  return (
    <section className={`panel summary${old ? " stale" : ""}`} aria-busy={computing} aria-labelledby="pg-summary-title">
      <h2 id="pg-summary-title">
        Summary {slow ? <span className="spinner" role="status" aria-label="computing" /> : null}
      </h2>
      <RunState status={status} />
      <dl className="figures num">
        <dt>
          <Term word="Max abs error">max abs error</Term>
        </dt>
        <dd data-testid="max-abs-error" title={String(summary.maxAbs)} className={overAtMax ? "alert" : ""}>
          {plainNumber(summary.maxAbs)}
        </dd>
        <dt>
          <Term word="Bound there">bound there</Term>
        </dt>
        <dd data-testid="bound-at-max-error" title={summary.boundAtMax === null ? "" : String(summary.boundAtMax)}>
          {summary.boundAtMax === null ? "–" : plainNumber(summary.boundAtMax)}
        </dd>
        <dt>
          <Term word="Error / tolerance">worst error / bound</Term>
        </dt>
        <dd
          data-testid="worst-fraction"
          className={worstFraction && !(worstFraction.fraction <= 1) ? "alert" : ""}
          title={worstFraction ? `at ${cellName(worstFraction.cell)}` : ""}
        >
          {worstFraction ? plainNumber(worstFraction.fraction) : "–"}
        </dd>
        <dt>
          max <Term word="Relative error">rel error</Term>
        </dt>
        <dd data-testid="max-rel-error" title={String(summary.maxRel)}>
          {formatShort(summary.maxRel)}
        </dd>
        <dt>
          <Term word="Max ulps">max ulps</Term>
        </dt>
        <dd data-testid="max-ulps">{String(summary.maxUlps)}</dd>
        <dt>
          cells <Term word="Over bound">over bound</Term>
        </dt>
        <dd
          data-testid="cells-over-bound"
          className={summary.overBound ? "alert" : ""}
          title={`${countText(summary.cells)} cells compared`}
        >
          {summary.overBound === null
            ? "–"
            : `${summary.overBound ? "▲ " : ""}${summary.overBound} / ${countText(summary.cells)}`}
        </dd>
      </dl>
      <FiguresExplained summary={summary} precision={ran.precision} />
      {summary.nonFinite.chunked + summary.nonFinite.serial > 0 ? (
        <p
          className="small alert"
          data-testid="non-finite-cells"
          title="Cells where a side is NaN or ±Inf: where the serial reference is finite they are over their bound; where it is not, nothing can be measured"
        >
          {nonFiniteCount(summary)}
        </p>
      ) : null}
      {worst && summary.maxAbs > 0 ? (
        <button type="button" className="worst" onClick={() => onWorstCell(worst.row, worst.token)}>
          Worst cell: row {worst.row}, token {worst.token} ({OUTPUT_LABELS[worst.output]})
        </button>
      ) : null}
      <dl className="ran num">
        <dt>
          <Term word="Backend">backend</Term>
        </dt>
        <dd data-testid="backend" className="words">
          {ran.backend}
        </dd>
        <dt>
          <Term word="Strategy">strategy</Term>
        </dt>
        <dd data-testid="strategy">{ran.strategy}</dd>
        <dt>chunk size</dt>
        <dd>{ran.chunkSize}</dd>
        <dt>chunked</dt>
        <dd data-testid="run-time">{millis(ran.millis)}</dd>
        <dt>
          <Term word="Serial ×2">serial ×2</Term>
        </dt>
        <dd>{millis(ran.serialMillis)}</dd>
      </dl>
      {old ? <p className="muted small">Recomputing; these figures are from the previous run.</p> : null}
      {computing && current && status.source === "preview" && (slow || status.drafting) ? (
        <p className="muted small" data-testid="preview-note">
          Computed here by core's float32 emulation of the chunked scan; the engine's own figures replace them when it
          answers.
        </p>
      ) : null}
    </section>
  );
});
