import type { ConventionProblem, ScanProblem } from "../core";
import type { Strategy } from "../names/strategies";

/**
 * How long the client waits for one problem's answer before it takes the engine for hung: a GPU
 * can stop answering without losing its device (a readback that never resolves), and nothing
 * else would ever end that run. The deadline scales with the problem: a fixed part (the first run
 * on a backend compiles shaders, about a second here, far more on a loaded machine), a part per
 * dispatch (per-token issues one per token, chunked one per chunk), and a part per multiply-add
 * of the local scans (B · padded T · min(C, T)). The figures are about 20 times the slowest
 * backend measured on this 2-core machine (tfjs cpu: about 30 ns a multiply-add, 1 ms a dispatch
 * under load), so only a run that has stopped trips it; a first version at 20 ns a multiply-add
 * abandoned a sound 64 × 65536 run on wasm. 64 × 32768 tokens with C = 128 gets
 * 10 s + 20 ms × 264 + 500 ns × 2^28 ≈ 149 s on chunked.
 */
export const WATCHDOG_BASE_MS = 10_000;
const MS_PER_DISPATCH = 20;
const MS_PER_MAC = 5e-4;

/** The shape the cost depends on: rows, the longest row, the chunk size. */
function shapeOf(problem: ScanProblem | ConventionProblem): { rows: number; tokens: number; chunk: number } {
  if ("library" in problem) {
    const kl = problem.batch.kl;
    return { rows: kl.length, tokens: Math.max(0, ...kl.map((row) => row.length)), chunk: problem.chunkSize };
  }
  if (problem.kind === "reinforce_pp") {
    const kl = problem.batch.kl;
    return { rows: kl.length, tokens: Math.max(0, ...kl.map((row) => row.length)), chunk: problem.chunkSize };
  }
  return { rows: problem.rewards.rows, tokens: problem.rewards.cols, chunk: problem.chunkSize };
}

/** The deadline for one problem, in milliseconds; `baseMs` replaces the fixed part (tests, `?watchdog=`). */
export function problemDeadlineMs(
  problem: ScanProblem | ConventionProblem,
  strategy: Strategy,
  baseMs = WATCHDOG_BASE_MS,
): number {
  const { rows, tokens, chunk } = shapeOf(problem);
  const c = Math.max(1, Math.min(chunk, tokens));
  const chunks = Math.ceil(tokens / Math.max(1, chunk));
  const dispatches = strategy === "per-token" ? tokens : chunks + 8;
  const macs = rows * chunks * Math.max(1, chunk) * c;
  return Math.ceil(baseMs + dispatches * MS_PER_DISPATCH + macs * MS_PER_MAC);
}

/** The message a hung run ends with: the deadline, in seconds, and what happens next. */
export function hungMessage(deadlineMs: number): string {
  return `no answer from the engine within ${(deadlineMs / 1000).toFixed(1)} s (the GPU may have hung); the run was abandoned`;
}
