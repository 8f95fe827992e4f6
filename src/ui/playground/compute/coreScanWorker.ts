/**
 * A small worker of the playground's own for core's chunked scan (slime-exact float32 emulation and
 * float64) and the per-element error bounds: tens to hundreds of ms at 16 × 8192, which on the main
 * thread would stall drawing. The engine worker stays the tfjs one.
 */
import * as Comlink from "comlink";
import { type Implementation, outputErrorBounds, type ScanOutputs, type ScanProblem, solve } from "../../../core";

export interface CoreChunkedRun {
  outputs: ScanOutputs;
  millis: number;
}

const api = {
  chunked(problem: ScanProblem): CoreChunkedRun {
    const start = performance.now();
    const { outputs } = solve(problem, "chunked");
    const run = { outputs, millis: performance.now() - start };
    return Comlink.transfer(run, outputBuffers(outputs));
  },
  /** Per-element error bounds of every output (core's outputErrorBounds): tens of ms at 16 × 8192. */
  bounds(problem: ScanProblem, implementation: Implementation): ScanOutputs<Float64Array> {
    const bounds = outputErrorBounds(problem, implementation);
    return Comlink.transfer(bounds, outputBuffers(bounds));
  },
};

export type CoreScanWorkerApi = typeof api;

function outputBuffers(outputs: ScanOutputs): Transferable[] {
  const arrays =
    outputs.kind === "discounted"
      ? [outputs.returns]
      : outputs.kind === "gae"
        ? [outputs.advantages, outputs.returns]
        : [...outputs.returns, ...outputs.tokenLevelRewards];
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}

Comlink.expose(api);
