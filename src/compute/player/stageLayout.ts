/**
 * Where each token sits on the stage. Time runs left to right: in original time t = 0 … T−1, so
 * the scan (which starts at the end of the sequence) moves right to left and the short chunk sits
 * at the start, after the chunk padding; in reversed time i = 0 … T_pad−1, as slime stores it.
 * Long rows show a window of a few chunks in full and fold the others into one cell per side.
 */

export type TimeView = "original" | "reversed";

/** Up to this many padded tokens the whole row is drawn; above, a window of chunks. */
export const FULL_TOKENS = 64;

export interface TokenColumn {
  kind: "token";
  /** Reversed position (slime's index); t = T − 1 − i, negative in the chunk padding. */
  i: number;
  chunk: number;
  x: number;
}

export interface FoldColumn {
  kind: "fold";
  /** Chunks folded into this cell, lowest to highest index. */
  firstChunk: number;
  lastChunk: number;
  x: number;
  width: number;
}

export interface ChunkBand {
  chunk: number;
  x: number;
  width: number;
}

export interface StageLayout {
  view: TimeView;
  cell: number;
  gap: number;
  width: number;
  tokens: TokenColumn[];
  folds: FoldColumn[];
  bands: ChunkBand[];
  /** Chunks drawn in full. */
  window: [number, number];
}

export interface LayoutInput {
  nChunks: number;
  chunkSize: number;
  view: TimeView;
  focusChunk: number;
  /** Pixels available for the token area. */
  width: number;
  /**
   * Fewer chunks are drawn in full while their cells would be narrower than this (a phone): a
   * readable window of tokens beside the folds, with the overview strip for the rest. 0: no limit.
   */
  minCell?: number;
}

const GAP = 6;
const FOLD = 64;
const MAX_CELL = 64;

/**
 * The chunks drawn in full: all of them at teaching sizes, else a page of a few chunks holding the
 * focus chunk. Pages (not a window centred on the focus) keep the picture still while the scan
 * moves through them, and the stage redraws far less while scrubbing.
 */
export function chunkWindow(
  nChunks: number,
  chunkSize: number,
  focusChunk: number,
  maxSpan = Number.POSITIVE_INFINITY,
): [number, number] {
  if (nChunks * chunkSize <= FULL_TOKENS && nChunks <= maxSpan) return [0, nChunks - 1];
  const span = Math.max(1, Math.min(nChunks, maxSpan, Math.floor(FULL_TOKENS / chunkSize)));
  const focus = Math.max(0, Math.min(nChunks - 1, focusChunk));
  const start = Math.min(nChunks - span, Math.floor(focus / span) * span);
  return [start, start + span - 1];
}

/** Chunks drawn in full at most so that each cell is at least `minCell` wide (folds on both sides once any is folded). */
function spanThatFits(nChunks: number, C: number, width: number, fold: number, minCell: number): number {
  let span = nChunks * C <= FULL_TOKENS ? nChunks : Math.max(1, Math.min(nChunks, Math.floor(FULL_TOKENS / C)));
  const cellAt = (n: number) => {
    const folds = n < nChunks ? 2 : 0;
    return (width - folds * (fold + GAP) - (n - 1) * GAP) / (n * C);
  };
  while (span > 1 && cellAt(span) < minCell) span--;
  return span;
}

export function stageLayout({ nChunks, chunkSize: C, view, focusChunk, width, minCell = 0 }: LayoutInput): StageLayout {
  // A narrow stage gets narrower folds: 64 px of a 220 px stage would leave the tokens no room.
  const foldWidth = Math.min(FOLD, Math.max(24, Math.floor(width / 8)));
  const window = chunkWindow(nChunks, C, focusChunk, spanThatFits(nChunks, C, width, foldWidth, minCell));
  const [c0, c1] = window;
  const shown = c1 - c0 + 1;
  // In original time chunk n−1 is leftmost: the display order of chunks is reversed.
  const order: number[] = [];
  for (let c = c0; c <= c1; c++) order.push(c);
  if (view === "original") order.reverse();
  const below = c0 > 0 ? ([0, c0 - 1] as const) : undefined;
  const above = c1 < nChunks - 1 ? ([c1 + 1, nChunks - 1] as const) : undefined;
  const [leftFold, rightFold] = view === "original" ? [above, below] : [below, above];
  const foldCount = (leftFold ? 1 : 0) + (rightFold ? 1 : 0);
  const gaps = (shown - 1 + foldCount) * GAP;
  const cell = Math.max(2, Math.min(MAX_CELL, (width - foldCount * foldWidth - gaps) / (shown * C)));

  const tokens: TokenColumn[] = [];
  const folds: FoldColumn[] = [];
  const bands: ChunkBand[] = [];
  let x = 0;
  if (leftFold) {
    folds.push({ kind: "fold", firstChunk: leftFold[0], lastChunk: leftFold[1], x, width: foldWidth });
    x += foldWidth + GAP;
  }
  order.forEach((c, n) => {
    bands.push({ chunk: c, x, width: C * cell });
    for (let p = 0; p < C; p++) {
      const k = view === "original" ? C - 1 - p : p;
      tokens.push({ kind: "token", i: c * C + k, chunk: c, x: x + p * cell });
    }
    x += C * cell + (n < order.length - 1 ? GAP : 0);
  });
  if (rightFold) {
    x += GAP;
    folds.push({ kind: "fold", firstChunk: rightFold[0], lastChunk: rightFold[1], x, width: foldWidth });
    x += foldWidth;
  }
  return { view, cell, gap: GAP, width: x, tokens, folds, bands, window };
}

/** x of the left edge of reversed position i, if it is drawn. */
export function xOf(layout: StageLayout, i: number): number | undefined {
  return layout.tokens.find((col) => col.i === i)?.x;
}
