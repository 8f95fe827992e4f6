import { memo, type ReactNode } from "react";
import { dataValue, f32 } from "../../compute/player/captions";
import type { MatrixView } from "../../compute/player/frame";
import { kernelEntry, localIndex, type Replay, tokenOf } from "../../compute/player/replay";
import type { TimeView } from "../../compute/player/stageLayout";
import { CARRY_TEXT_COLOUR, MATRIX_COLOUR, powerFill, signedFill, textOn } from "./colors";
import { GapRow, Num, NumTable } from "./DetailPanels";
import { HatchPattern } from "./Stage";

/** Largest part of M drawn; a bigger chunk shows this many rows and columns around the active one. */
const MAX_SIDE = 16;

/** Which display indices of the C×C kernel are drawn: all of them, or a window around `active`. */
export function matrixWindow(chunkSize: number, active: number): [number, number] {
  if (chunkSize <= MAX_SIDE) return [0, chunkSize - 1];
  const start = Math.max(0, Math.min(chunkSize - MAX_SIDE, active - MAX_SIDE / 2));
  return [start, start + MAX_SIDE - 1];
}

interface Props {
  replay: Replay;
  matrix: MatrixView;
  view: TimeView;
  b: number;
}

/**
 * The current chunk's upper-triangular Toeplitz kernel M[i][j] = d^(j−i). In original time the
 * local sum at a token is one row of M times the chunk's rewards (r above the columns); in
 * reversed time, as slime computes x·M, one column of M (x beside the rows).
 */
export function MatrixPanel({ replay: r, matrix: m, view, b }: Props) {
  const C = r.chunkSize;
  const original = view === "original";
  // Display index p ↔ reversed position l: p = C−1−l in original time, p = l in reversed time.
  const toL = (p: number) => (original ? C - 1 - p : p);
  const active = original ? C - 1 - m.k : m.k;
  const [w0, w1] = matrixWindow(C, active);
  const n = w1 - w0 + 1;
  const s = Math.max(12, Math.min(24, Math.floor(240 / (n + 1))));
  // Index labels need about 18 px each (three digits of t).
  const labelEvery = Math.ceil(18 / s);
  // Matrix origin (mx, my): the chunk's values sit above it (original) or left of it (reversed).
  const mx = original ? 4 : 34 + s;
  const my = original ? 30 + s : 18;
  const inputExtent = Math.max(1e-30, ...m.x.map(Math.abs));
  const localExtent = Math.max(
    1e-30,
    ...Array.from({ length: m.valid }, (_, k) => Math.abs(localOf(r, b, m.chunk, k))),
  );
  const label = (l: number) => {
    const t = tokenOf(r, m.chunk * C + l);
    return original ? (t < 0 ? "pad" : `${t}`) : `${m.chunk * C + l}`;
  };

  // The chunk's values beside M: above the columns (original) or left of the rows (reversed).
  const vector = [];
  const outputs = [];
  for (let p = w0; p <= w1; p++) {
    const l = toL(p);
    const isPad = l >= m.valid;
    const xv = m.x[l];
    const feeds = !isPad && l <= m.k;
    const vx = original ? mx + s * (p - w0) : mx - s;
    const vy = original ? my - s - 2 : my + s * (p - w0);
    vector.push(
      <g key={`v${p}`} className={`m-vector${feeds ? " feeding" : ""}`}>
        <rect
          x={vx}
          y={vy}
          width={s - 1}
          height={s - 1}
          fill={isPad ? "url(#player-matrix-hatch)" : signedFill(xv, inputExtent)}
          data-value={dataValue(xv)}
        />
        {s >= 23 && !isPad ? (
          <text x={vx + s / 2} y={vy + s / 2 + 3} textAnchor="middle" fill={textOn(xv, inputExtent)}>
            {compact(xv)}
          </text>
        ) : null}
        {(p - w0) % labelEvery === 0 || l === m.k ? (
          <text
            className="m-index"
            x={original ? vx + s / 2 : vx - 3}
            y={original ? vy - 4 : vy + s / 2 + 3}
            textAnchor={original ? "middle" : "end"}
          >
            {label(l)}
          </text>
        ) : null}
      </g>,
    );
    const known = !isPad && l <= m.k;
    const ox = original ? mx + s * n + 6 : mx + s * (p - w0);
    const oy = original ? my + s * (p - w0) : my + s * n + 6;
    const value = known ? localOf(r, b, m.chunk, l) : 0;
    outputs.push(
      <g key={`o${p}`} className={`m-output${l === m.k ? " current" : ""}`}>
        <rect
          x={ox}
          y={oy}
          width={s - 1}
          height={s - 1}
          fill={known ? signedFill(value, localExtent) : "#fff"}
          data-value={known ? dataValue(value) : undefined}
        />
        {known && s >= 23 ? (
          <text x={ox + s / 2} y={oy + s / 2 + 3} textAnchor="middle" fill={textOn(value, localExtent)}>
            {compact(value)}
          </text>
        ) : null}
      </g>,
    );
  }
  const width = original ? mx + s * (n + 1) + 10 : mx + s * n + 4;
  const height = original ? my + s * n + 16 : my + s * (n + 1) + 20;
  const activeRect = original
    ? { x: mx - 2, y: my + s * (active - w0) - 2, width: s * n + 3, height: s + 3 }
    : { x: mx + s * (active - w0) - 2, y: my - 2, width: s + 3, height: s * n + 3 };
  const elided = C > MAX_SIDE ? ` (rows and columns ${w0}–${w1} of ${C})` : "";

  return (
    <figure className="matrix-panel" data-region="matrix">
      <figcaption>
        Chunk {m.chunk}: M[i][j] = {r.kind === "gae" ? "(γλ)" : "γ"}^(j−i){elided} ·{" "}
        {original ? "active row × r" : "x × active column"}
      </figcaption>
      <svg
        width={width}
        height={height}
        role="img"
        aria-label={`Discount matrix of chunk ${m.chunk}, position ${m.k} active`}
      >
        <defs>
          <HatchPattern id="player-matrix-hatch" />
        </defs>
        <text className="m-axis" x={original ? mx : 4} y={10}>
          {original ? "r_t (t ascending)" : "x_i"}
        </text>
        <text
          className="m-axis"
          x={original ? mx + s * n + 6 : mx}
          y={original ? my + s * n + 12 : my + s * (n + 1) + 16}
        >
          {original ? "local" : "local sums"}
        </text>
        {vector}
        <KernelGrid kernelRow={r.kernelRow} w0={w0} w1={w1} active={active} original={original} s={s} mx={mx} my={my} />
        {outputs}
        <rect className="m-active" {...activeRect} fill="none" stroke={MATRIX_COLOUR} rx={3} />
      </svg>
      <TermList replay={r} matrix={m} original={original} />
    </figure>
  );
}

/** Two significant digits: what fits in a matrix cell (the full value is in data-value and the term list). */
function compact(x: number): string {
  if (x === 0) return "0";
  const a = Math.abs(x);
  if (a >= 0.01 && a < 100) return String(Number(x.toPrecision(2)));
  return x.toExponential(0).replace("e+", "e");
}

interface GridProps {
  kernelRow: Float32Array;
  w0: number;
  w1: number;
  active: number;
  original: boolean;
  s: number;
  mx: number;
  my: number;
}

/**
 * The kernel itself: it depends only on the discount, the window and the active line, so while
 * whole chunks are stepped (the active line stays the last one) it is not redrawn at all.
 */
const KernelGrid = memo(function KernelGrid({ kernelRow, w0, w1, active, original, s, mx, my }: GridProps) {
  // M is Toeplitz: every diagonal holds one power of the discount, so each diagonal is one path
  // (a few dozen elements instead of C² cells), carrying its value once.
  const n = w1 - w0 + 1;
  const box = (row: number, col: number) =>
    `M${mx + s * (col - w0)},${my + s * (row - w0)}h${s - 1}v${s - 1}h${1 - s}z`;
  const diagonals: ReactNode[] = [];
  const labels: ReactNode[] = [];
  let zeros = "";
  let activeCells = "";
  for (let power = -(n - 1); power <= n - 1; power++) {
    let d = "";
    for (let row = w0; row <= w1; row++) {
      const col = row + power;
      if (col < w0 || col > w1) continue;
      d += box(row, col);
      if (power >= 0 && (original ? row === active : col === active)) activeCells += box(row, col);
      if (power >= 0 && s >= 23) {
        labels.push(
          <text
            key={`${row}-${col}`}
            x={mx + s * (col - w0) + s / 2}
            y={my + s * (row - w0) + s / 2 + 3}
            textAnchor="middle"
          >
            {compact(kernelRow[power])}
          </text>,
        );
      }
    }
    if (power < 0) zeros += d;
    else if (d) {
      const value = kernelRow[power];
      diagonals.push(
        <path key={power} d={d} fill={powerFill(value)} data-value={dataValue(value)} data-power={power} />,
      );
    }
  }
  return (
    <g className="m-grid">
      <path className="m-zero" d={zeros} fill="#fff" />
      {diagonals}
      <path className="m-active-cells" d={activeCells} fill="none" />
      <g className="m-labels">{labels}</g>
    </g>
  );
});

function localOf(r: Replay, b: number, chunk: number, k: number): number {
  return r.localScans[localIndex(r, b, chunk * r.chunkSize + k)];
}

/** The terms x_l·d^(k−l) of the current local sum, and the engine's sum of them. */
function TermList({ replay: r, matrix: m, original }: { replay: Replay; matrix: MatrixView; original: boolean }) {
  const C = r.chunkSize;
  const d = r.kind === "gae" ? "(γλ)" : "γ";
  const rows = m.terms.map((term, l) => ({ l, term }));
  const shown = rows.length <= 7 ? rows : [...rows.slice(0, 3), undefined, ...rows.slice(-3)];
  let sequential = 0;
  for (const term of m.terms) sequential = Math.fround(sequential + term);
  const t = tokenOf(r, m.chunk * C + m.k);
  return (
    <div className="term-list">
      <p className="term-head">
        local sum at {original ? `t = ${t}` : `i = ${m.chunk * C + m.k}`} (k = {m.k}):
      </p>
      <NumTable
        head={[
          original ? "t′" : "l",
          "x",
          <>
            × {d}^{original ? "(t′−t)" : "(k−l)"}
          </>,
          "= term",
        ]}
      >
        {shown.map((row) =>
          row === undefined ? (
            <GapRow key="gap" cols={4}>
              ⋯ {rows.length - 6} more
            </GapRow>
          ) : (
            <tr key={row.l}>
              <td>{original ? tokenOf(r, m.chunk * C + row.l) : row.l}</td>
              <Num x={m.x[row.l]} />
              <Num x={kernelEntry(r, row.l, m.k)} />
              <Num x={row.term} />
            </tr>
          ),
        )}
      </NumTable>
      <p className="term-sum">
        Σ (engine) = <span data-value={dataValue(m.sum)}>{f32(m.sum)}</span>
        {sequential !== m.sum ? (
          <span className="term-note">
            {" "}
            · summed in this order in float32: {f32(sequential)} (the backend's matrix product adds in another order)
          </span>
        ) : null}
      </p>
      {m.chunk > 0 ? (
        <p className="term-note" style={{ color: CARRY_TEXT_COLOUR }}>
          No carry yet: the tokens after this chunk are added later.
        </p>
      ) : null}
    </div>
  );
}
