/** Test data for the player's unit tests (not imported by the player itself). */

import { buildReplay, type Replay } from "../compute/player/replay";
import { buildTrace, type PlayerTrace } from "../compute/player/trace";
import { type FloatArray, type ScanProblem, solve } from "../core";
import { maskWithHoles, normals, seededRandom } from "../core/testRandom";
import type { EngineRun } from "../engine/client";

const f32s = (values: ArrayLike<number>) => Float64Array.from(values, Math.fround);

/** Rectangular returns: B rows of T float32-valued N(0, 1) rewards (as float64 arrays, the reference's view). */
export function discountedProblem(
  rows: number,
  cols: number,
  chunkSize: number,
  discount = 0.9,
  seed = 1,
): ScanProblem {
  const random = seededRandom(seed);
  return { kind: "discounted", rewards: { rows, cols, data: f32s(normals(random, rows * cols)) }, discount, chunkSize };
}

export function gaeProblem(rows: number, cols: number, chunkSize: number, seed = 2): ScanProblem {
  const random = seededRandom(seed);
  return {
    kind: "gae",
    rewards: { rows, cols, data: f32s(normals(random, rows * cols)) },
    values: { rows, cols, data: f32s(normals(random, rows * cols, 0.5)) },
    gamma: 0.99,
    lambd: 0.95,
    chunkSize,
  };
}

export function reinforceProblem(lengths: number[], chunkSize: number, seed = 3): ScanProblem {
  const random = seededRandom(seed);
  return {
    kind: "reinforce_pp",
    batch: {
      rewards: lengths.map(() => Math.fround(random() * 2 - 1)),
      kl: lengths.map((L) => f32s(normals(random, L, 0.1))),
      lossMasks: lengths.map((L) => maskWithHoles(random, L)),
    },
    klCoef: 0.05,
    gamma: 0.99,
    chunkSize,
  };
}

/** The problem with float32 arrays (what the engine runs). */
export function float32Problem(p: ScanProblem): ScanProblem<Float32Array> {
  const to32 = (x: { rows: number; cols: number; data: FloatArray }) => ({ ...x, data: Float32Array.from(x.data) });
  switch (p.kind) {
    case "discounted":
      return { ...p, rewards: to32(p.rewards) };
    case "gae":
      return { ...p, rewards: to32(p.rewards), values: to32(p.values) };
    case "reinforce_pp":
      return { ...p, batch: { ...p.batch, kl: p.batch.kl.map((row) => Float32Array.from(row)) } };
  }
}

/** An engine run made of core's float32 chunked solution: its outputs and its trace, verbatim. */
export function coreRun(p: ScanProblem): EngineRun {
  const solution = solve(float32Problem(p), "chunked");
  if (!solution.trace) throw new Error("core's chunked solve returned no trace");
  return {
    outputs: solution.outputs as EngineRun["outputs"],
    trace: solution.trace as EngineRun["trace"],
    backend: "core",
    strategy: "chunked",
    millis: 0,
  };
}

export function replayOf(p: ScanProblem, run = coreRun(p)): Replay {
  return buildReplay(p, run, solve(p, "serial").outputs);
}

export function traceOf(p: ScanProblem, run = coreRun(p)): PlayerTrace {
  return buildTrace(replayOf(p, run));
}
