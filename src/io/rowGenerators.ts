import { intBetween, normal, seededRandom } from "../core/seededRandom";
import type { GeneratorId, PlaygroundRow } from "./playgroundState";

/** What one generator draws for a row of `length` tokens; every lane is filled, so any estimator has data. */
type RowDraw = (random: () => number, length: number) => Required<Omit<PlaygroundRow, "length">>;

const f32 = Math.fround;

/**
 * `Array.from({ length }, draw)` drawn in index order (the order fixes the numbers a seed gives),
 * with a plain loop: V8's Array.from over an array-like is about ten times slower, which made a
 * 64 × 32,768 example take seconds to open.
 */
function drawn<T>(length: number, draw: (t: number) => T): T[] {
  const out = new Array<T>(length);
  for (let t = 0; t < length; t++) out[t] = draw(t);
  return out;
}

/** An outcome reward of a verifier: right (+1) or wrong (−1). */
function verdict(random: () => number): number {
  return random() < 0.5 ? 1 : -1;
}

/** A critic's guess that drifts towards the outcome, with a little noise. */
function criticValues(random: () => number, length: number, outcome: number): number[] {
  return drawn(length, (t) => f32(0.5 * outcome * ((t + 1) / length) + 0.05 * normal(random)));
}

/** Small non-negative per-token KL, as k1/k3 estimators give near the reference policy. */
function smallKl(random: () => number, length: number, scale: number): number[] {
  return drawn(length, () => f32(scale * Math.abs(normal(random))));
}

function ones(length: number): (0 | 1)[] {
  return new Array<0 | 1>(length).fill(1);
}

/** A row judged by its outcome: the critic's values drawn toward it, then a small KL of scale `klScale`. */
function judgedRow(
  random: () => number,
  length: number,
  rewards: number[],
  outcome: number,
  klScale: number,
  lossMask = ones(length),
): ReturnType<RowDraw> {
  return {
    rewards,
    values: criticValues(random, length, outcome),
    kl: smallKl(random, length, klScale),
    lossMask,
    outcome,
  };
}

/** Reward only at the last token: the usual verifier outcome. */
const terminal: RowDraw = (random, length) => {
  const outcome = verdict(random);
  const rewards = new Array<number>(length).fill(0);
  if (length > 0) rewards[length - 1] = outcome;
  return judgedRow(random, length, rewards, outcome, 0.01);
};

/** N(0, 1) rewards on every token (a process reward model). */
const dense: RowDraw = (random, length) => ({
  rewards: drawn(length, () => f32(normal(random))),
  values: drawn(length, () => f32(0.5 * normal(random))),
  kl: smallKl(random, length, 0.05),
  lossMask: ones(length),
  outcome: f32(normal(random)),
});

/** Mostly zero, with a few large spikes (about 2% of tokens). */
const sparse: RowDraw = (random, length) => {
  const rewards = drawn(length, () => (random() < 0.02 ? f32((random() < 0.5 ? -1 : 1) * (1 + 4 * random())) : 0));
  const outcome = verdict(random);
  return judgedRow(random, length, rewards, outcome, 0.01);
};

/** Token rewards −β·kl with β = 0.05 and the outcome at the end: what a KL-penalised rollout feeds the scan. */
const klTerminal: RowDraw = (random, length) => {
  const kl = smallKl(random, length, 0.2);
  const outcome = verdict(random);
  const rewards = kl.map((k) => f32(-0.05 * k));
  if (length > 0) rewards[length - 1] = f32(rewards[length - 1] + outcome);
  return { rewards, values: criticValues(random, length, outcome), kl, lossMask: ones(length), outcome };
};

/**
 * Assistant turns with tool outputs between them (masked, 0); the outcome lands on the last
 * assistant token. The KL lane has values on tool tokens too: REINFORCE++ must mask them.
 */
const multiTurn: RowDraw = (random, length) => {
  const lossMask = ones(length);
  let t = intBetween(random, Math.ceil(length / 8), Math.ceil(length / 4));
  while (t < length - 1) {
    const hole = intBetween(random, Math.ceil(length / 12), Math.ceil(length / 6));
    for (let k = t; k < Math.min(length - 1, t + hole); k++) lossMask[k] = 0;
    t += hole + intBetween(random, Math.ceil(length / 8), Math.ceil(length / 4));
  }
  const outcome = verdict(random);
  const last = lossMask.lastIndexOf(1);
  const rewards = new Array<number>(length).fill(0);
  if (last >= 0) rewards[last] = outcome;
  return judgedRow(random, length, rewards, outcome, 0.05, lossMask);
};

/** ±1e30 alternating (slightly jittered): float32 loses everything that cancels at this scale. */
const hugeAlternating: RowDraw = (random, length) => {
  const huge = () => drawn(length, (t) => f32((t % 2 === 0 ? 1 : -1) * 1e30 * (1 + 0.01 * random())));
  return { rewards: huge(), values: huge(), kl: huge().map(Math.abs), lossMask: ones(length), outcome: f32(1e30) };
};

/** Reward 1 on every token: the long row where γ^t underflows float32 (0.9^1000 = 0). */
const constant: RowDraw = (_random, length) => ({
  rewards: new Array<number>(length).fill(1),
  values: new Array<number>(length).fill(0),
  kl: new Array<number>(length).fill(1),
  lossMask: ones(length),
  outcome: 1,
});

const DRAWS: Record<GeneratorId, RowDraw> = {
  terminal,
  dense,
  sparse,
  "kl-terminal": klTerminal,
  "multi-turn": multiTurn,
  "huge-alternating": hugeAlternating,
  constant,
};

/**
 * The rows a generator draws for a seed: deterministic (same seed, same numbers, on any machine).
 * Ragged batches keep row 0 at full length and draw the others between a quarter and all of it.
 */
export function generateRows(
  preset: GeneratorId,
  seed: number,
  rows: number,
  tokens: number,
  ragged: boolean,
): PlaygroundRow[] {
  const random = seededRandom(seed);
  const lengths = Array.from({ length: rows }, (_, b) =>
    ragged && b > 0 ? intBetween(random, Math.max(1, Math.ceil(tokens / 4)), tokens) : tokens,
  );
  return lengths.map((length) => ({ length, ...DRAWS[preset](random, length) }));
}
