import { chunkLayout, MAX_CHUNK_SIZE } from "../core";
import type { Strategy } from "../names/strategies";
import { type BackendCapacity, formatBytes, formatCount } from "./backendCapacity";
import { EngineLimitError } from "./engineErrors";
import { MAX_DIRECT_CHUNKS, SECOND_LEVEL_CHUNK } from "./twoLevelScan";

/** The `[rows, cols]` batch one scan runs over (REINFORCE++: right-padded to the longest sequence). */
export interface ScanShape {
  rows: number;
  cols: number;
  chunkSize: number;
}

/**
 * Refuses, before any tensor exists, a scan that needs a tensor or a dispatch beyond what the
 * backend can hold. What a strategy allocates:
 * - chunked and two-level: the discount kernel, `min(C, T)×C` values (a chunk longer than the row
 *   only needs the kernel rows that meet real tokens, see discountKernels); the data, `B·⌈T/C⌉·C`
 *   values (the padded batch, the local scans); one matMul of `B·⌈T/C⌉` rows;
 * - two-level also: the `n×n` carry kernel (n ≤ 1024 chunks), or past that a second-level scan in
 *   chunks of 256 with its own kernel and padded data;
 * - per-token: only `B×T` tensors (no kernel, no matMul);
 * - fused: only `B×T` tensors, and with the trace one `B×⌈T/C⌉×(C+1)` tensor (no kernel, no matMul).
 */
export function checkEngineLimits(shape: ScanShape, strategy: Strategy, capacity: BackendCapacity, trace = true): void {
  const { rows, cols, chunkSize } = shape;
  if (rows * cols === 0) return;
  const maxValues = capacity.maxTensorValues;
  if (strategy === "fused") {
    const { nChunks } = chunkLayout(cols, chunkSize);
    const data = trace ? Math.max(rows * cols, rows * nChunks * (chunkSize + 1)) : rows * cols;
    if (data > maxValues) {
      const what = data > rows * cols ? "a trace (each chunk's local scan and carry)" : "tensors";
      throw new EngineLimitError(
        `the ${rows}×${cols} batch needs ${what} of ${formatCount(data)} float32 values (${formatBytes(4 * data)}); ` +
          `${capacity.tensorLimit}: split the batch into smaller ones${trace ? " or use a smaller chunk size" : ""}`,
      );
    }
    return;
  }
  if (strategy !== "per-token") {
    const kernelRows = Math.min(chunkSize, cols);
    const kernel = kernelRows * chunkSize;
    if (kernel > maxValues) {
      const clamp =
        kernelRows < chunkSize ? ` (one chunk longer than the ${cols}-token rows needs only ${cols} rows)` : "";
      throw new EngineLimitError(
        `chunk size ${chunkSize} needs a ${kernelRows}×${chunkSize} float32 discount kernel of ${formatBytes(4 * kernel)}${clamp}; ` +
          `${capacity.tensorLimit}, so the chunk size can be at most ${largestChunk(cols, maxValues)} for rows of ${cols} tokens`,
      );
    }
  }
  const data = largestDataTensor(shape, strategy);
  if (data.values > maxValues) {
    throw new EngineLimitError(
      `the ${rows}×${cols} batch needs ${data.what} of ${formatCount(data.values)} float32 values ` +
        `(${formatBytes(4 * data.values)}); ${capacity.tensorLimit}: ${data.advice}`,
    );
  }
  if (strategy !== "per-token") {
    const { nChunks } = chunkLayout(cols, chunkSize);
    const matMulRows = rows * nChunks;
    if (matMulRows > capacity.maxMatMulRows) {
      throw new EngineLimitError(
        `the local scans are one matMul of ${formatCount(matMulRows)} rows (${rows} rows × ${nChunks} chunks); ` +
          `${capacity.matMulLimit ?? `${capacity.backend} allows at most ${formatCount(capacity.maxMatMulRows)}`}: ` +
          "use a larger chunk size or a smaller batch",
      );
    }
  }
}

/** The largest chunk size whose kernel, `min(C, T)×C` values, fits `maxValues` (core's own cap aside). */
export function largestChunk(cols: number, maxValues: number): number {
  let square = Math.floor(Math.sqrt(maxValues));
  while (square * square > maxValues) square--;
  while ((square + 1) * (square + 1) <= maxValues) square++;
  // Up to T the kernel is C×C; above T only its T rows are kept, so C may grow to maxValues / T.
  const upToRow = Math.min(square, cols);
  const aboveRow = Math.floor(maxValues / cols);
  return Math.min(MAX_CHUNK_SIZE, aboveRow > cols ? Math.max(upToRow, aboveRow) : upToRow);
}

/** The largest data tensor a strategy allocates (kernels aside), what it is and how to shrink it. */
function largestDataTensor(shape: ScanShape, strategy: Strategy): { values: number; what: string; advice: string } {
  const { rows, cols, chunkSize } = shape;
  const advice = "split the batch into smaller ones";
  if (strategy === "per-token") return { values: rows * cols, what: "tensors", advice };
  const { nChunks } = chunkLayout(cols, chunkSize);
  const padded = rows * nChunks * chunkSize;
  const what = padded > rows * cols ? `tensors padded to whole chunks of ${chunkSize} tokens` : "tensors";
  let largest = { values: padded, what, advice };
  if (strategy === "two-level") {
    // The carries: one n×n kernel, or the chunk ends scanned again in chunks of 256 (recursively).
    const fewerChunks = "use a larger chunk size (fewer chunks) or another strategy";
    let n = nChunks;
    while (n > MAX_DIRECT_CHUNKS) {
      const level = chunkLayout(n, SECOND_LEVEL_CHUNK);
      const values = rows * level.nChunks * SECOND_LEVEL_CHUNK;
      if (values > largest.values)
        largest = { values, what: "the second-level scan of the chunk ends", advice: fewerChunks };
      n = level.nChunks;
    }
    if (n * n > largest.values) largest = { values: n * n, what: `the ${n}×${n} carry kernel`, advice: fewerChunks };
  }
  return largest;
}
