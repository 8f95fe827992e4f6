import { dataValue, f32, f64, outputSymbol } from "../../compute/player/captions";
import { type ErrorSummary, errorSummary } from "../../compute/player/errorSummary";
import type { CarryView, Frame } from "../../compute/player/frame";
import { type Replay, tokenOf } from "../../compute/player/replay";
import { VERDICT_WORDS } from "../../conformance/verdictWords";
import { powerSourceLabel } from "../../core";
import { formatShort } from "../../io/formatNumber";
import { Term } from "../glossary/Term";
import { CARRY_TEXT_COLOUR } from "./colors";

/** The carry step of one chunk: G = local + fl32(s_c·d^(k+1)) at every position. */
export function CarryPanel({ replay: r, carry: cv, b }: { replay: Replay; carry: CarryView; b: number }) {
  const C = r.chunkSize;
  const G = outputSymbol(r);
  const d = r.kind === "gae" ? "(γλ)" : "γ";
  const rows = cv.combined.map((_, k) => k);
  const shown = rows.length <= 10 ? rows : [...rows.slice(0, 5), -1, ...rows.slice(-4)];
  return (
    // Focusable: on a phone the table scrolls sideways inside the panel, and keys must reach it too.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached with Tab (WCAG 2.1.1)
    <figure className="carry-panel" data-region="carry-lane" tabIndex={0}>
      <figcaption>
        Chunk {cv.chunk}:{" "}
        {cv.chunk === 0 ? (
          "no carry (nothing comes after the end of the sequence)"
        ) : (
          <>
            carry s<sub>{cv.chunk}</sub> = {G}
            <sub>{cv.sourceT}</sub> ={" "}
            <strong style={{ color: CARRY_TEXT_COLOUR }} data-value={dataValue(cv.carry)}>
              {f32(cv.carry)}
            </strong>
            , added as s<sub>{cv.chunk}</sub>·{d}^(k+1)
          </>
        )}
      </figcaption>
      <table className="num-table">
        <thead>
          <tr>
            <th>k</th>
            <th>t</th>
            <th>
              <Term word="Local sum">local</Term>
            </th>
            <th>
              + s<sub>{cv.chunk}</sub>·{d}^(k+1)
            </th>
            <th>= {G}_t</th>
            <th>serial f64</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((k) =>
            k < 0 ? (
              <tr key="gap">
                <td colSpan={6}>⋯</td>
              </tr>
            ) : (
              <tr key={k}>
                <td>{k}</td>
                <td>{tokenOf(r, cv.chunk * C + k)}</td>
                <td data-value={dataValue(cv.locals[k])}>{f32(cv.locals[k])}</td>
                <td data-value={dataValue(cv.terms[k])} style={{ color: CARRY_TEXT_COLOUR }}>
                  {f32(cv.terms[k])}
                </td>
                <td data-value={dataValue(cv.combined[k])}>{f32(cv.combined[k])}</td>
                <td data-value={dataValue(serialAt(r, cv, k, b))}>{f64(serialAt(r, cv, k, b))}</td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    </figure>
  );
}

function serialAt(r: Replay, cv: CarryView, k: number, b: number): number {
  return r.serial[b * r.cols + tokenOf(r, cv.chunk * r.chunkSize + k)];
}

/** A few tokens of the focus row, as a table of named lanes (residuals, token rewards, reversal). */
function TokenTable({
  title,
  tokens,
  columns,
}: {
  title: string;
  tokens: number[];
  columns: { name: string; value(t: number): number | string }[];
}) {
  return (
    <figure className="token-table">
      <figcaption>{title}</figcaption>
      <table className="num-table">
        <thead>
          <tr>
            <th>t</th>
            {columns.map((c) => (
              <th key={c.name}>{c.name}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <tr key={t}>
              <td>{t}</td>
              {columns.map((c) => {
                const v = c.value(t);
                return (
                  <td key={c.name} data-value={typeof v === "number" ? dataValue(v) : undefined}>
                    {typeof v === "number" ? f32(v) : v}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

function lastTokens(from: number, count: number): number[] {
  const out: number[] = [];
  for (let t = from; t >= 0 && out.length < count; t--) out.push(t);
  return out;
}

/** What the steps before the scan show for the focus row b. */
export function PreludePanel({ replay: r, frame: f }: { replay: Replay; frame: Frame }) {
  const b = f.focusRow;
  const j = (t: number) => b * r.cols + t;
  switch (f.step.kind) {
    case "residuals": {
      const g = r.gae;
      if (!g) return null;
      return (
        <TokenTable
          title={`Row ${b}, from the last token: δ_t = r_t + γ·V_(t+1) − V_t (γ = ${g.gamma})`}
          tokens={lastTokens(r.cols - 1, 6)}
          columns={[
            { name: "r_t", value: (t) => g.rewards[j(t)] },
            { name: "V_t", value: (t) => g.values[j(t)] },
            { name: "V_(t+1)", value: (t) => (t + 1 < r.cols ? g.values[j(t + 1)] : 0) },
            { name: "δ_t", value: (t) => r.scanned[j(t)] },
          ]}
        />
      );
    }
    case "discount": {
      const g = r.gae;
      if (!g) return null;
      const C = r.chunkSize;
      return (
        <figure className="token-table">
          <figcaption>The scan's discount and its float32 powers ({powerSourceLabel("torch-cpu")})</figcaption>
          <table className="num-table">
            <tbody>
              <tr>
                <th>γλ (float64)</th>
                <td data-value={dataValue(r.discount)}>{f64(r.discount)}</td>
              </tr>
              <tr>
                <th>fl32(γλ)</th>
                <td data-value={dataValue(Math.fround(r.discount))}>{f32(Math.fround(r.discount))}</td>
              </tr>
              {[1, 2, 3]
                .filter((k) => k < C)
                .map((k) => (
                  <tr key={k}>
                    <th>(γλ)^{k}</th>
                    <td data-value={dataValue(r.kernelRow[k])}>{f32(r.kernelRow[k])}</td>
                  </tr>
                ))}
              <tr>
                <th>(γλ)^{C} (carry over a chunk)</th>
                <td data-value={dataValue(r.carryPowers[C - 1])}>{f32(r.carryPowers[C - 1])}</td>
              </tr>
            </tbody>
          </table>
        </figure>
      );
    }
    case "kl-penalty":
    case "outcome": {
      const x = r.reinforce;
      if (!x) return null;
      const last = x.lastUnmasked[b];
      const end = Math.min(r.lengths[b] - 1, last + 2);
      return (
        <TokenTable
          title={`Row ${b}: token rewards −β·kl·mask (β = ${x.klCoef}), outcome ${f32(x.outcomes[b])} at t = ${last}`}
          tokens={lastTokens(end, 6)}
          columns={[
            { name: "kl", value: (t) => x.kl[j(t)] },
            { name: "mask", value: (t) => String(x.mask[j(t)]) },
            { name: "−β·kl·mask", value: (t) => x.penalty[j(t)] },
            {
              name: "token reward",
              value: (t) => (f.step.kind === "outcome" || t !== last ? r.scanned[j(t)] : "…"),
            },
          ]}
        />
      );
    }
    case "pad-batch":
    case "trim":
      return (
        <figure className="token-table">
          <figcaption>
            {f.step.kind === "trim" ? "Each row back to its own length" : `Rows padded to max L = ${r.cols}`}
          </figcaption>
          <table className="num-table">
            <thead>
              <tr>
                <th>row</th>
                <th>L</th>
                <th>zeros after the end</th>
              </tr>
            </thead>
            <tbody>
              {r.lengths.slice(0, 12).map((L, row) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are identified by their index
                <tr key={row}>
                  <td>{row}</td>
                  <td>{L}</td>
                  <td>{r.cols - L}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </figure>
      );
    case "reverse":
    case "pad": {
      const T = r.cols;
      const pad = f.step.kind === "pad" ? r.pad : 0;
      const shown = T <= 6 ? [...Array(T).keys()] : [0, 1, 2, -1, T - 2, T - 1];
      return (
        <figure className="token-table">
          <figcaption>
            Row {b} in slime's order: x_i = {r.kind === "gae" ? "δ" : "r"}_(T−1−i)
          </figcaption>
          <table className="num-table">
            <thead>
              <tr>
                <th>i</th>
                <th>t</th>
                <th>x_i</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((i) =>
                i < 0 ? (
                  <tr key="gap">
                    <td colSpan={3}>⋯</td>
                  </tr>
                ) : (
                  <tr key={i}>
                    <td>{i}</td>
                    <td>{tokenOf(r, i)}</td>
                    <td data-value={dataValue(r.scanned[j(tokenOf(r, i))])}>{f32(r.scanned[j(tokenOf(r, i))])}</td>
                  </tr>
                ),
              )}
              {pad > 0 ? (
                <tr className="pad-row">
                  <td>
                    {T}…{T + pad - 1}
                  </td>
                  <td>before 0</td>
                  <td>0 (padding)</td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </figure>
      );
    }
    default:
      return null;
  }
}

/** The run's outcome: what the engine computed and how far it is from the float64 serial loop. */
export function SummaryPanel({ replay: r, compare }: { replay: Replay; compare: boolean }) {
  const s: ErrorSummary = errorSummary(r);
  return (
    <figure className="token-table summary-panel">
      <figcaption>{compare ? "Chunked float32 against serial float64" : "The engine's run"}</figcaption>
      <table className="num-table">
        <tbody>
          <tr>
            <th>backend · time</th>
            <td>
              {r.backend} · {formatShort(r.millis)} ms
            </td>
          </tr>
          <tr>
            <th>cells</th>
            <td>
              {s.cells} ({r.rows} rows, {r.nChunks} chunks of {r.chunkSize})
            </td>
          </tr>
          {compare ? (
            <>
              <tr>
                <th>
                  <Term word="Max abs error">max abs error</Term>
                </th>
                <td data-testid="player-max-error" data-value={dataValue(s.maxAbs)}>
                  {formatShort(s.maxAbs)}
                </td>
              </tr>
              <tr>
                <th>
                  <Term word="Error / tolerance">worst error / bound</Term>
                </th>
                <td>{formatShort(s.maxRatio)}</td>
              </tr>
              <tr>
                <th>
                  <Term word="Over bound">over bound</Term>
                </th>
                <td data-testid="player-over-bound">
                  {s.overBound}
                  {s.nonFiniteOver > 0 ? ` (${s.nonFiniteOver} NaN / ∞ where the reference is finite)` : ""}
                </td>
              </tr>
              {s.nonFinite > 0 ? (
                <tr>
                  <th title={VERDICT_WORDS.lost}>NaN / ∞ in the reference, left out</th>
                  <td data-testid="player-non-finite">{s.nonFinite}</td>
                </tr>
              ) : null}
            </>
          ) : null}
          <tr>
            <th>replayed carry step ≠ engine</th>
            <td data-testid="player-replay-mismatches">{s.replayMismatches}</td>
          </tr>
        </tbody>
      </table>
    </figure>
  );
}
