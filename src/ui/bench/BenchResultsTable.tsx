import { Fragment } from "react";
import { formatError, formatMs, formatSpeedup } from "../../compute/bench/benchFormat";
import { JS_LOOP, sizeLabel } from "../../compute/bench/benchPlan";
import type { BenchRow } from "../../compute/bench/benchResult";
import { speedupOverPerToken } from "../../compute/bench/benchStats";
import { Term } from "../glossary/Term";

const STATUS_TEXT: Record<BenchRow["status"], string> = {
  ok: "✓ within",
  wrong: "✗ beyond",
  skipped: "skipped",
  failed: "failed",
  unavailable: "backend unavailable",
};

const runs = (n: number) => `${n} run${n === 1 ? "" : "s"}`;

const COLUMNS = 10;

/**
 * Every measured row: time, speedup over per-token, error, tensors, and why a row has no time. A
 * row's note (a skip, a failure) goes on a line of its own under it, as wide as the table, so a long
 * one wraps instead of widening the table past the panel.
 */
export function BenchResultsTable(props: { rows: readonly BenchRow[]; caption: string; testId: string }) {
  const { rows, caption, testId } = props;
  return (
    <div className="bench-table-scroll">
      <table className="bench-table" data-testid={testId}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">backend</th>
            <th scope="col">strategy</th>
            <th scope="col">B×T</th>
            <th scope="col">
              <Term word="Chunk">C</Term>
            </th>
            <th scope="col">median</th>
            <th scope="col">vs per-token</th>
            <th scope="col">warm-up</th>
            <th scope="col">
              <Term word="Max abs error">max abs error</Term>
            </th>
            <th scope="col">
              error <Term word="Bound">bound</Term>
            </th>
            <th scope="col">tensors</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const speedup = speedupOverPerToken(r, rows);
            const key = `${r.backend} ${r.strategy} ${sizeLabel(r.size)} ${r.chunkSize} ${r.sweep}`;
            return (
              <Fragment key={key}>
                <tr
                  data-status={r.status}
                  data-strategy={r.strategy}
                  data-backend={r.backend}
                  className={r.note ? "has-note" : undefined}
                >
                  <td>{r.strategy === JS_LOOP ? "–" : r.backend}</td>
                  <td>{r.strategy === JS_LOOP ? "plain JS loop" : r.strategy}</td>
                  <td className="num">{sizeLabel(r.size)}</td>
                  <td className="num">{r.strategy === JS_LOOP || r.strategy === "per-token" ? "–" : r.chunkSize}</td>
                  <td className="num" data-testid="bench-median">
                    {r.medianMs === undefined ? "–" : formatMs(r.medianMs)}
                  </td>
                  <td className="num">{speedup === undefined ? "–" : formatSpeedup(speedup)}</td>
                  <td className="num">{r.warmupMs === undefined ? "–" : formatMs(r.warmupMs)}</td>
                  <td className="num">{formatError(r.maxAbsError)}</td>
                  <td className={`status status-${r.status}`}>
                    {STATUS_TEXT[r.status]}
                    {r.checkedRuns > 0 ? <span className="muted">, {runs(r.checkedRuns)} checked</span> : null}
                  </td>
                  <td className="num">
                    {r.tensorsBefore === undefined ? "–" : `${r.tensorsBefore} → ${r.tensorsAfter ?? "?"}`}
                  </td>
                </tr>
                {r.note ? (
                  <tr className="bench-note">
                    <td colSpan={COLUMNS}>
                      <span className="muted">note: </span>
                      {r.note}
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
