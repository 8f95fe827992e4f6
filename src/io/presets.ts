import type { Estimator, GeneratorId, PlaygroundRow, PlaygroundState } from "./playgroundState";

/** What each seeded generator draws, for the preset menu (label) and its tooltip (caption). */
export const GENERATOR_INFO: Record<GeneratorId, { label: string; caption: string }> = {
  terminal: {
    label: "Terminal outcome",
    caption: "Zero rewards and one outcome (±1) at the last token, as a verifier gives.",
  },
  dense: { label: "Dense random", caption: "A seeded N(0, 1) reward on every token, as a process reward model gives." },
  sparse: { label: "Sparse spikes", caption: "Mostly zero, with large spikes on about 2% of the tokens." },
  "kl-terminal": {
    label: "KL penalty + terminal",
    caption: "Token rewards −0.05·KL on every token, plus the outcome at the last one.",
  },
  "multi-turn": {
    label: "Multi-turn, masked tools",
    caption: "Assistant turns with masked tool outputs between them; the outcome on the last assistant token.",
  },
  "huge-alternating": {
    label: "Huge alternating",
    caption: "±1e30 on alternate tokens: float32 errors of about 1e24 in absolute terms, near 1e-6 relative.",
  },
  constant: { label: "Constant reward", caption: "Reward 1 on every token: long rows where γ^t underflows float32." },
};

/** The settings every example starts from (slime's defaults where it has them). */
export const BASE_SETTINGS: Omit<PlaygroundState, "data"> = {
  estimator: "discounted",
  gamma: 0.99,
  lambd: 0.95,
  chunkSize: 128,
  klCoef: 0.05,
  precision: "float32-engine",
  backend: "auto",
  strategy: "chunked",
  selectedRow: 0,
  errorMetric: "abs",
  errorScope: "batch",
  output: "advantages",
};

/** A built-in example: a whole state, with a one-line caption and, for real reports, their link. */
export interface PlaygroundExample {
  id: string;
  title: string;
  caption: string;
  link?: { label: string; url: string };
  state: PlaygroundState;
}

function seeded(
  preset: GeneratorId,
  settings: Partial<Omit<PlaygroundState, "data">>,
  rows = 4,
  tokens = 300,
  ragged = true,
  seed = 1,
): PlaygroundState {
  return { ...BASE_SETTINGS, ...settings, data: { source: "preset", preset, seed, rows, tokens, ragged } };
}

function inline(estimator: Estimator, settings: Partial<Omit<PlaygroundState, "data">>, rows: PlaygroundRow[]) {
  return { ...BASE_SETTINGS, estimator, ...settings, data: { source: "inline" as const, rows } };
}

/**
 * The state a link's readable parameters start from (`?gamma=0.9&chunk=64`, `?backend=wasm`): 4 ragged
 * multi-turn rows of up to 300 tokens, REINFORCE++ with γ 0.99 and C 128, so the padding of the ragged
 * batch, the carries across chunk boundaries and the masked tool outputs all show. Scripts and tests
 * rely on it; the bare page shows FIRST_VISIT_STATE instead.
 */
export const DEFAULT_PLAYGROUND_STATE: PlaygroundState = seeded("multi-turn", { estimator: "reinforce_pp" });

/** A row of `length` tokens: `fill` on every token, then the given tokens set. */
function rewardRow(length: number, fill: number, at: Record<number, number>): PlaygroundRow {
  const rewards = Array.from({ length }, (_, t) => at[t] ?? fill);
  return { length, rewards };
}

/**
 * What the bare page opens on (no link, no saved session), and what Reset brings back: discounted
 * returns on 3 short ragged rows (48, 40 and 32 tokens) with γ 0.95 and chunks of 8, so every chunk
 * boundary is a visible line in the editor and the charts. The rewards sit at a few tokens only: an
 * outcome on the last token reaches every earlier chunk through the carries alone, and the one reward
 * inside row 0 shows a chunk's own local sums; row 1's small reward on every token and its failed
 * outcome (−1) make a return that crosses zero. Every value is exact in float32.
 */
export const FIRST_VISIT_STATE: PlaygroundState = inline("discounted", { gamma: 0.95, chunkSize: 8 }, [
  rewardRow(48, 0, { 19: 0.5, 47: 1 }),
  rewardRow(40, 0.0625, { 39: -1 }),
  rewardRow(32, 0, { 31: 1 }),
]);

const slime = (n: number, kind: "issues" | "pull") => `https://github.com/THUDM/slime/${kind}/${n}`;
const verl = (n: number, kind: "issues" | "pull") => `https://github.com/volcengine/verl/${kind}/${n}`;
const trl = (n: number) => `https://github.com/huggingface/trl/issues/${n}`;

/** A row of an example: lanes given as short lists. */
function row(lanes: Omit<PlaygroundRow, "length"> & { length?: number }): PlaygroundRow {
  const length = lanes.length ?? (lanes.rewards ?? lanes.kl ?? lanes.values ?? lanes.lossMask ?? []).length;
  return { ...lanes, length };
}

/** The built-in examples menu: one per generator, then situations from real reports (PRESETS.md). */
export const EXAMPLES: PlaygroundExample[] = [
  {
    id: "first-visit",
    title: "Chunks and carries (first visit)",
    caption:
      "Discounted returns on 3 short rows, γ 0.95, chunks of 8: the outcome on the last token reaches every earlier chunk only through the carries.",
    state: FIRST_VISIT_STATE,
  },
  {
    id: "default",
    title: "Multi-turn REINFORCE++ batch",
    caption:
      "Ragged multi-turn rows: padding, carries across chunks of 128 and masked tool outputs in one REINFORCE++ scan (what a link's readable parameters start from).",
    state: DEFAULT_PLAYGROUND_STATE,
  },
  {
    id: "terminal",
    title: GENERATOR_INFO.terminal.label,
    caption: GENERATOR_INFO.terminal.caption,
    state: seeded("terminal", {}),
  },
  {
    id: "dense",
    title: GENERATOR_INFO.dense.label,
    caption: GENERATOR_INFO.dense.caption,
    state: seeded("dense", {}, 8, 1024, false),
  },
  {
    id: "sparse",
    title: GENERATOR_INFO.sparse.label,
    caption: GENERATOR_INFO.sparse.caption,
    state: seeded("sparse", {}, 4, 1000),
  },
  {
    id: "kl-terminal",
    title: GENERATOR_INFO["kl-terminal"].label,
    caption: GENERATOR_INFO["kl-terminal"].caption,
    state: seeded("kl-terminal", { estimator: "reinforce_pp" }),
  },
  {
    id: "gae-terminal",
    title: "GAE on a terminal outcome",
    caption: "A critic that drifts towards the outcome; advantages are the discounted TD residuals (γλ = 0.9405).",
    state: seeded("terminal", { estimator: "gae" }),
  },
  {
    id: "huge-alternating",
    title: GENERATOR_INFO["huge-alternating"].label,
    caption: GENERATOR_INFO["huge-alternating"].caption,
    state: seeded("huge-alternating", {}, 2, 512, false),
  },
  {
    id: "gamma-underflow",
    title: "γ^t underflows in float32 (TRL #6626)",
    caption:
      "Constant reward 1, γ 0.9, 512 tokens: G ≈ 10 everywhere. Weighting by γ^t from the start and dividing it out gives 0/0 once 0.9^t underflows float32; the scan never forms γ^t beyond a chunk.",
    link: { label: "huggingface/trl#6626", url: trl(6626) },
    state: seeded("constant", { gamma: 0.9 }, 1, 512, false),
  },
  {
    id: "kl-on-tool-tokens-leak",
    title: "KL on tool tokens leaks into returns (slime #1370, old)",
    caption:
      "Old behaviour: token rewards −β·kl on every token, tool tokens (mask 0) included; G₀ = −3.439. Open the fixed version next.",
    link: { label: "THUDM/slime#1370", url: slime(1370, "issues") },
    state: inline("discounted", { gamma: 0.9, klCoef: 1 }, [
      row({ rewards: [-1, -1, -1, -1], lossMask: [1, 0, 0, 1], kl: [1, 1, 1, 1] }),
    ]),
  },
  {
    id: "kl-on-tool-tokens-fixed",
    title: "KL masked on tool tokens (slime PR #1372, the fix)",
    caption: "REINFORCE++ as slime runs it today: −β·kl·mask, so tool tokens add nothing; G₀ = −1.729.",
    link: { label: "THUDM/slime#1372", url: slime(1372, "pull") },
    state: inline("reinforce_pp", { gamma: 0.9, klCoef: 1 }, [
      row({ kl: [1, 1, 1, 1], lossMask: [1, 0, 0, 1], outcome: 0 }),
    ]),
  },
  {
    id: "return-through-observations",
    title: "Return carried through tool tokens (verl #7278)",
    caption:
      "γ 1, mask 1 1 0 0 1 1, outcome 1: slime carries the return through the observation (1 1 1 1 1 1); verl used to cut it (0 0 0 1 1 1).",
    link: { label: "volcengine/verl#7278", url: verl(7278, "issues") },
    state: inline("reinforce_pp", { gamma: 1, klCoef: 0 }, [
      row({ kl: [0, 0, 0, 0, 0, 0], lossMask: [1, 1, 0, 0, 1, 1], outcome: 1 }),
    ]),
  },
  {
    id: "gae-observation-tokens",
    title: "GAE across observation tokens (verl PR #2337)",
    caption:
      "slime's chunked GAE takes no mask, so observation tokens keep their TD errors: A = .372 .391 .727 .766 .385 .300; verl's skipping GAE gives .443 .466 .385 .385 .385 .300.",
    link: { label: "volcengine/verl#2337", url: verl(2337, "pull") },
    state: inline("gae", { gamma: 1, lambd: 0.95 }, [
      row({
        rewards: [0, 0, 0, 0, 0, 1],
        values: [0.5, 0.5, 0.2, 0.2, 0.6, 0.7].map(Math.fround),
        lossMask: [1, 1, 0, 0, 1, 1],
      }),
    ]),
  },
  {
    id: "reward-at-eos",
    title: "Reward at EOS or one slot after (TRL #3750)",
    caption:
      "γ 1, λ 0.95. Row 0: score after the last token, A = .542 .466 .385 .300; row 1: score at the EOS, A = .556 .480 .400.",
    link: { label: "huggingface/trl#3750", url: trl(3750) },
    state: inline("gae", { gamma: 1, lambd: 0.95 }, [
      row({ rewards: [0, 0, 0, 1], values: [0.4, 0.5, 0.6, 0.7].map(Math.fround) }),
      row({ rewards: [0, 0, 1], values: [0.4, 0.5, 0.6].map(Math.fround) }),
    ]),
  },
  {
    id: "padding-summed",
    title: "Padding summed into real tokens (TRL #7024)",
    caption:
      "γ 1. Row 0 takes all four slots, as the wrong all-ones mask did: 6.5 5 4 2. Row 1 stops at the true length 2: 2.5 1.",
    link: { label: "huggingface/trl#7024", url: trl(7024) },
    state: inline("discounted", { gamma: 1 }, [row({ rewards: [1.5, 1, 2, 2] }), row({ rewards: [1.5, 1] })]),
  },
  {
    id: "padding-waste",
    title: "Padding waste on a ragged batch (SkyRL PR #1285, 1/10 scale)",
    caption: "Responses of 5000 and 400 tokens scanned as one [2, 5000] batch: 46% of the cells are padding.",
    link: { label: "NovaSky-AI/SkyRL#1285", url: "https://github.com/NovaSky-AI/SkyRL/pull/1285" },
    state: seededTerminalRows([5000, 400]),
  },
  {
    id: "nan-one-token",
    title: "NaN in one token",
    caption:
      "Row 1 has a NaN reward at token 140 (C 64). The serial loop loses tokens 0–140; the chunked scan loses its whole chunk too, up to token 171, and everything before it through the carries.",
    state: nanInOneToken(),
  },
];

/**
 * Two rows of 300 tokens (a small reward per token, the outcome at the end); row 1 has a NaN at
 * token 140, in the middle of a chunk of 64 (slime's reversed layout: original tokens 108–171).
 */
function nanInOneToken(): PlaygroundState {
  const rewards = () => Array.from({ length: 300 }, (_, t): number => (t === 299 ? 1 : 0.015625));
  const poisoned = rewards();
  poisoned[140] = Number.NaN;
  return inline("discounted", { chunkSize: 64, selectedRow: 1 }, [
    row({ rewards: rewards() }),
    row({ rewards: poisoned }),
  ]);
}

/** Rows of the given lengths with an outcome of 1 at the last token (the padding-waste example). */
function seededTerminalRows(lengths: number[]): PlaygroundState {
  const rows = lengths.map((length) => {
    const rewards = new Array<number>(length).fill(0);
    rewards[length - 1] = 1;
    return row({ rewards, outcome: 1 });
  });
  return inline("discounted", {}, rows);
}

export function exampleById(id: string): PlaygroundExample | undefined {
  return EXAMPLES.find((example) => example.id === id);
}
