import { memo, useCallback, useMemo, useState } from "react";
import { LIBRARY_LABELS, librarySides, pairsOf } from "../../../compute/conventions/conventionDifferences";
import { CONVENTION_OUTPUTS, type ConventionOutput } from "../../../compute/conventions/conventionRun";
import type { ConventionStatus, ConventionView } from "../../../compute/conventions/conventionView";
import { type PictureSource, sameAsk } from "../../../compute/heatmap/picture";
import { cellLoss, cellLossText } from "../../../compute/playground/cellErrors";
import { maskTable } from "../../../compute/playground/rowView";
import type { Library } from "../../../core";
import { formatValue } from "../../../io/formatNumber";
import type { Unread } from "../../../io/laneUse";
import type { PlaygroundRow } from "../../../io/playgroundState";
import { ErrorHeatmap, type HeatmapCell } from "../../heatmap/ErrorHeatmap";
import { Segmented } from "../controls/Segmented";
import type { Hover } from "../results/ResultsPanel";
import { ConventionChart } from "./ConventionChart";
import { checkSentence, OUTPUT_TITLES, overlayLines } from "./conventionPanelModel";
import "./conventions.css";

export interface ConventionPanelProps {
  status: ConventionStatus;
  rows: PlaygroundRow[];
  selectedRow: number;
  hover: Hover | null;
  onHover(hover: Hover | null): void;
  onSelectRow(row: number): void;
  /** What of the batch the conventions do not read (io/laneUse.ts), or null. */
  unread: Unread | null;
}

const ESTIMATOR_NAMES = { reinforce_pp: "REINFORCE++", gae: "GAE" } as const;

/**
 * The library conventions on the same inputs: the libraries' outputs of the selected row overlaid,
 * the float32 check of the library shown, the sentences naming each rule that differs, and a heatmap
 * of |shown − compared| over the batch.
 */
export const ConventionPanel = memo(function ConventionPanel(props: ConventionPanelProps) {
  const { status } = props;
  const { view } = status;
  return (
    <section
      className={`panel conventions-panel${status.computing ? " stale" : ""}`}
      aria-labelledby="pg-conventions-title"
      aria-busy={status.computing}
      data-testid="conventions"
      data-run={status.runs}
    >
      <h2 id="pg-conventions-title">Library conventions{view ? ` · ${ESTIMATOR_NAMES[view.estimator]}` : ""}</h2>
      {props.unread ? (
        <p className={props.unread.onZeros ? "notice" : "muted small"} data-testid="convention-lane-notice">
          {props.unread.text}
        </p>
      ) : null}
      {view ? (
        // A new estimator starts on its main output (GAE: advantages).
        <ConventionBody key={view.estimator} {...props} view={view} />
      ) : (
        <p className="muted">{status.computing ? "Running the libraries…" : "Waiting for the first run…"}</p>
      )}
    </section>
  );
});

function ConventionBody({
  view,
  status,
  unread,
  rows,
  selectedRow,
  hover,
  onHover,
  onSelectRow,
}: ConventionPanelProps & { view: ConventionView }) {
  const [output, setOutput] = useState<ConventionOutput>(view.estimator === "gae" ? "advantages" : "returns");
  const [pick, setPick] = useState<Library | null>(null);
  const row = Math.min(selectedRow, view.rows - 1);
  const lines = useMemo(() => overlayLines(view, row, output), [view, row, output]);
  const masks = useMemo(
    () => (rows.length === view.rows ? maskTable(rows, view.cols) : undefined),
    [rows, view.rows, view.cols],
  );
  const rowMask = masks?.subarray(row * view.cols, row * view.cols + (view.lengths[row] ?? 0));
  const { sentences } = view;
  const compared = view.runs
    .slice(1)
    .filter((run) => run.ok)
    .map((run) => run.library);
  const other = pick && compared.includes(pick) ? pick : compared[0];
  const shown = view.runs[0];
  const otherRun = view.runs.find((run) => run.library === other);
  const refused = view.runs.filter((run) => !run.ok);
  const reference = shown?.ok ? shown.tables[output] : undefined;
  const actual = otherRun?.ok ? otherRun.tables[output] : undefined;
  // Pooled by the convention worker, which keeps the run's tables (the page's are copies, for the readouts).
  const { pictures } = status;
  const { id, sentPicture: sent } = view;
  const heatmapSource = useMemo<PictureSource | null>(
    () =>
      reference && actual && other && pictures
        ? {
            at: "worker",
            picture: (ask) => pictures.picture(id, other, output, ask),
            ready: (ask) =>
              sent && sent.other === other && sent.output === output && sameAsk(sent.ask, ask) ? sent.picture : null,
          }
        : null,
    [reference, actual, other, output, pictures, id, sent],
  );
  const hoverToken = hover && hover.row === row ? hover.token : null;
  const onHoverToken = useCallback(
    (t: number | null) => onHover(t === null ? null : { row, token: t }),
    [onHover, row],
  );
  const [cell, setCell] = useState<HeatmapCell | null>(null);
  const onHoverCell = useCallback(
    (next: HeatmapCell | null) => {
      setCell(next);
      onHover(next ? { row: next.row, token: next.token } : null);
    },
    [onHover],
  );
  const title =
    view.libraries.length > 1
      ? `${OUTPUT_TITLES[output]} of each library, row ${row}`
      : `${OUTPUT_TITLES[output]}, row ${row}: float64 against float32`;

  return (
    <div className="conventions">
      <p className="muted small convention-caption">
        Each library's own rules on the same rows (outcome reward, KL, loss mask
        {view.estimator === "gae" ? ", values" : ""}): where the reward lands, what masked tokens do, how advantages are
        whitened. The charts above are slime's chunked scan against its serial loop.
      </p>
      {/* On zeros the libraries agree trivially: no sentence claims they agree on this batch. */}
      {unread?.onZeros ? null : (
        <p className="convention-check" data-testid="convention-check">
          {checkSentence(view)}
        </p>
      )}
      {refused.slice(view.runs[0]?.ok ? 0 : 1).map((run) => (
        <p key={run.library} className="convention-refused" data-testid="convention-refused">
          {LIBRARY_LABELS[run.library]} refuses these inputs: {run.ok ? "" : run.error}
        </p>
      ))}
      <Segmented<ConventionOutput>
        id="pg-convention-output"
        label="Chart"
        help="Which output of each library the chart and the heatmap show: returns, advantages (whitened when whitening is on) or the token-level rewards each library forms from the KL and the outcome."
        options={CONVENTION_OUTPUTS}
        labels={{ returns: "returns", advantages: "advantages", tokenLevelRewards: "token rewards" }}
        value={output}
        onChange={setOutput}
      />
      {lines.length > 0 && (view.lengths[row] ?? 0) > 0 ? (
        <div data-testid="convention-chart">
          <ConventionChart
            title={title}
            lines={lines}
            length={view.lengths[row]}
            lossMask={rowMask}
            hoverToken={hoverToken}
            onHoverToken={onHoverToken}
          />
        </div>
      ) : null}
      {sentences.length > 0 ? (
        <div className="convention-differences" data-testid="convention-differences">
          <h3>What differs, and where</h3>
          {pairsOf(sentences).map(([pair, items]) => (
            <section key={pair.join("-")} aria-label={`${LIBRARY_LABELS[pair[0]]} against ${LIBRARY_LABELS[pair[1]]}`}>
              <h4>
                {LIBRARY_LABELS[pair[0]]} against {LIBRARY_LABELS[pair[1]]}
              </h4>
              <ul>
                {items.map((d) => (
                  <li key={d.rule} data-rule={d.rule} data-pair={d.pair.join("-")}>
                    {d.text}
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      ) : view.libraries.length > 1 ? null : (
        <p className="muted small">Tick a library under “Compare with” to see where they differ, token by token.</p>
      )}
      {shown?.ok && otherRun?.ok && other && heatmapSource ? (
        <div className="convention-heatmap" data-testid="convention-heatmap">
          <div className="convention-heatmap-head">
            <h3>
              |{LIBRARY_LABELS[other]} − {LIBRARY_LABELS[shown.library]}| per token,{" "}
              {OUTPUT_TITLES[output].toLowerCase()}
            </h3>
            {compared.length > 1 ? (
              <Segmented<Library>
                id="pg-convention-pair"
                label={`${LIBRARY_LABELS[shown.library]} against`}
                help="Which compared library the heatmap subtracts from the library shown."
                options={compared}
                labels={LIBRARY_LABELS}
                value={other}
                onChange={setPick}
              />
            ) : null}
          </div>
          <output className="convention-readout" aria-live="polite" data-testid="convention-readout">
            {cell ? differenceReadout(cell, shown.library, other) : "hover or focus a cell for both libraries' values"}
          </output>
          <section
            className="convention-heatmap-canvas"
            aria-label={`Difference heatmap: |${LIBRARY_LABELS[other]} − ${LIBRARY_LABELS[shown.library]}| per token`}
          >
            <ErrorHeatmap
              source={heatmapSource}
              rows={view.rows}
              cols={view.cols}
              lengths={view.lengths}
              reference={shown.tables[output]}
              actual={otherRun.tables[output]}
              lossMask={masks}
              chunkBoundaries={NO_BOUNDARIES}
              metric="abs"
              precision="float64"
              selectedRow={row}
              onSelectRow={onSelectRow}
              onHoverCell={onHoverCell}
              hoverToken={hover?.token ?? null}
              sides={librarySides(shown.library, other)}
            />
          </section>
        </div>
      ) : null}
    </div>
  );
}

const NO_BOUNDARIES: number[] = [];

/** One cell of the difference heatmap in words; a cell NaN or ±Inf took says who lost it, with no |Δ|. */
function differenceReadout(cell: HeatmapCell, shown: Library, other: Library): string {
  const where = `row ${cell.row} · t ${cell.token}`;
  if (cell.padding) return `${where} · padding (beyond the row's length)`;
  const masked = cell.masked ? " · masked" : "";
  const loss = cellLoss(cell.serial, cell.chunked);
  if (loss) {
    const text = cellLossText(loss, cell.serial, cell.chunked, librarySides(shown, other), (x) =>
      formatValue(x, "float64"),
    );
    return `${where} · ${text}${masked}`;
  }
  const values = `${LIBRARY_LABELS[shown]} ${formatValue(cell.serial, "float64")} · ${LIBRARY_LABELS[other]} ${formatValue(cell.chunked, "float64")}`;
  return `${where} · ${values} · |Δ| ${formatValue(cell.abs, "float64")}${masked}`;
}
