import type { CSSProperties, ReactNode } from "react";
import { dataValue, f32, f64, outputSymbol } from "../../compute/player/captions";
import { errorSummary } from "../../compute/player/errorSummary";
import type { CarryView, Frame } from "../../compute/player/frame";
import { type Replay, tokenOf } from "../../compute/player/replay";
import { VERDICT_WORDS } from "../../conformance/verdictWords";
import { powerSourceLabel } from "../../core";
import { formatShort } from "../../io/formatNumber";
import { Term } from "../glossary/Term";
import { CARRY_TEXT_COLOUR } from "./colors";

/** A number cell: what it prints, and the exact value in `data-value` for the tests and the formula card. */
export function Num({ x, f = f32, style }: { x: number; f?: (x: number) => string; style?: CSSProperties }) {
  return (
    <td data-value={dataValue(x)} style={style}>
      {f(x)}
    </td>
  );
}

/** The row that stands for the rows a long table leaves out. */
export function GapRow({ cols, children = "⋯" }: { cols: number; children?: ReactNode }) {
  return (
    <tr>
      <td colSpan={cols}>{children}</td>
    </tr>
  );
}

/** A table of numbers: its column heads (none for a list of named values) and its rows. */
export function NumTable({ head, children }: { head?: ReactNode[]; children: ReactNode }) {
  return (
    <table className="num-table">
      {head ? (
        <thead>
          <tr>
            {head.map((h, n) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a table's heads are fixed
              <th key={n}>{h}</th>
            ))}
          </tr>
        </thead>
      ) : null}
      <tbody>{children}</tbody>
    </table>
  );
}

/** One named value per line (the discount's powers, the run's summary). */
function Named({ name, children }: { name: ReactNode; children: ReactNode }) {
  return (
    <tr>
      <th>{name}</th>
      {children}
    </tr>
  );
}

/** The carry step of one chunk: G = local + fl32(s_c·d^(k+1)) at every position. */
export function CarryPanel({ replay: r, carry: cv, b }: { replay: Replay; carry: CarryView; b: number }) {
  const C = r.chunkSize;
  const G = outputSymbol(r);
  const d = r.kind === "gae" ? "(γλ)" : "γ";
  const rows = cv.combined.map((_, k) => k);
  const shown = rows.length <= 10 ? rows : [...rows.slice(0, 5), -1, ...rows.slice(-4)];
  const carryTerm = (
    <>
      + s<sub>{cv.chunk}</sub>·{d}^(k+1)
    </>
  );
  const local = <Term word="Local sum">local</Term>;
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
      <NumTable head={["k", "t", local, carryTerm, `= ${G}_t`, "serial f64"]}>
        {shown.map((k) =>
          k < 0 ? (
            <GapRow key="gap" cols={6} />
          ) : (
            <tr key={k}>
              <td>{k}</td>
              <td>{tokenOf(r, cv.chunk * C + k)}</td>
              <Num x={cv.locals[k]} />
              <Num x={cv.terms[k]} style={{ color: CARRY_TEXT_COLOUR }} />
              <Num x={cv.combined[k]} />
              <Num x={r.serial[b * r.cols + tokenOf(r, cv.chunk * C + k)]} f={f64} />
            </tr>
          ),
        )}
      </NumTable>
    </figure>
  );
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
      <NumTable head={["t", ...columns.map((c) => c.name)]}>
        {tokens.map((t) => (
          <tr key={t}>
            <td>{t}</td>
            {columns.map((c) => {
              const v = c.value(t);
              return typeof v === "number" ? <Num key={c.name} x={v} /> : <td key={c.name}>{v}</td>;
            })}
          </tr>
        ))}
      </NumTable>
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
      if (!r.gae) return null;
      const C = r.chunkSize;
      return (
        <figure className="token-table">
          <figcaption>The scan's discount and its float32 powers ({powerSourceLabel("torch-cpu")})</figcaption>
          <NumTable>
            <Named name="γλ (float64)">
              <Num x={r.discount} f={f64} />
            </Named>
            <Named name="fl32(γλ)">
              <Num x={Math.fround(r.discount)} />
            </Named>
            {[1, 2, 3]
              .filter((k) => k < C)
              .map((k) => (
                <Named key={k} name={<>(γλ)^{k}</>}>
                  <Num x={r.kernelRow[k]} />
                </Named>
              ))}
            <Named name={<>(γλ)^{C} (carry over a chunk)</>}>
              <Num x={r.carryPowers[C - 1]} />
            </Named>
          </NumTable>
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
          <NumTable head={["row", "L", "zeros after the end"]}>
            {r.lengths.slice(0, 12).map((L, row) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are identified by their index
              <tr key={row}>
                <td>{row}</td>
                <td>{L}</td>
                <td>{r.cols - L}</td>
              </tr>
            ))}
          </NumTable>
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
          <NumTable head={["i", "t", "x_i"]}>
            {shown.map((i) =>
              i < 0 ? (
                <GapRow key="gap" cols={3} />
              ) : (
                <tr key={i}>
                  <td>{i}</td>
                  <td>{tokenOf(r, i)}</td>
                  <Num x={r.scanned[j(tokenOf(r, i))]} />
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
          </NumTable>
        </figure>
      );
    }
    default:
      return null;
  }
}

/** The run's outcome: what the engine computed and how far it is from the float64 serial loop. */
export function SummaryPanel({ replay: r, compare }: { replay: Replay; compare: boolean }) {
  const s = errorSummary(r);
  return (
    <figure className="token-table summary-panel">
      <figcaption>{compare ? "Chunked float32 against serial float64" : "The engine's run"}</figcaption>
      <NumTable>
        <Named name="backend · time">
          <td>
            {r.backend} · {formatShort(r.millis)} ms
          </td>
        </Named>
        <Named name="cells">
          <td>
            {s.cells} ({r.rows} rows, {r.nChunks} chunks of {r.chunkSize})
          </td>
        </Named>
        {compare ? (
          <>
            <Named name={<Term word="Max abs error">max abs error</Term>}>
              <td data-testid="player-max-error" data-value={dataValue(s.maxAbs)}>
                {formatShort(s.maxAbs)}
              </td>
            </Named>
            <Named name={<Term word="Error / tolerance">worst error / bound</Term>}>
              <td>{formatShort(s.maxRatio)}</td>
            </Named>
            <Named name={<Term word="Over bound">over bound</Term>}>
              <td data-testid="player-over-bound">
                {s.overBound}
                {s.nonFiniteOver > 0 ? ` (${s.nonFiniteOver} NaN / ∞ where the reference is finite)` : ""}
              </td>
            </Named>
            {s.nonFinite > 0 ? (
              <tr>
                <th title={VERDICT_WORDS.lost}>NaN / ∞ in the reference, left out</th>
                <td data-testid="player-non-finite">{s.nonFinite}</td>
              </tr>
            ) : null}
          </>
        ) : null}
        <Named name="replayed carry step ≠ engine">
          <td data-testid="player-replay-mismatches">{s.replayMismatches}</td>
        </Named>
      </NumTable>
    </figure>
  );
}
