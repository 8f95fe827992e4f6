import { bytesToBase64, float32ToBase64 } from "./float32Base64";
import { float32Text } from "./float32Text";
import { laneOf, materializeRows } from "./playgroundProblem";
import type { PlaygroundRow, PlaygroundState } from "./playgroundState";
import { packBits } from "./stateWire";

/**
 * "Copy as pytest": a test file that rebuilds the playground's inputs as float32 tensors and asserts
 * that slime's own function matches the serial loop on them, with the tolerances of slime's own
 * tests (tests/test_discounted_returns.py at THUDM/slime 624b824):
 * - `chunked_discounted_returns` vs the serial loop: atol 1e-4, rtol 1e-5 (its float32 case);
 * - `chunked_gae` vs `vanilla_gae`: atol 1e-5, rtol 1e-5, advantages and returns;
 * - `get_reinforce_plus_plus_returns` (cp_size 1, megatron's mpu stubbed as slime's test does) vs
 *   the serial loop over slime's token rewards: atol 1e-5, rtol 1e-5.
 * Ragged discounted and GAE rows are right-padded with zeros to `[B, max length]`, as slime pads a
 * batch. Up to SMALL_DATA numbers are written as readable lists (shortest float32 text, exact);
 * more as base64 of little-endian float32 (`numpy.frombuffer(..., "<f4")`), so the file stays a
 * paste-able size. Run it from a slime checkout: `pytest scanlab_case.py`.
 */
export const SLIME_TOLERANCES = {
  discounted: { atol: 1e-4, rtol: 1e-5 },
  gae: { atol: 1e-5, rtol: 1e-5 },
  reinforce_pp: { atol: 1e-5, rtol: 1e-5 },
} as const;

export const SMALL_DATA = 256;
/** slime's REINFORCE++ scan always uses the default chunk size. */
const RPP_CHUNK_SIZE = 128;
const WRAP = 100;

export function pytestSnippet(state: PlaygroundState, rows: PlaygroundRow[] = materializeRows(state)): string {
  const cols = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const lengths = rows.map((row) => row.length);
  const total = lengths.reduce((sum, n) => sum + n, 0);
  const small = total <= SMALL_DATA;
  const source = dataSource(state);
  const rpp = state.estimator === "reinforce_pp";
  const head = [
    `"""Scanlab playground export: ${caseLine(state)} on ${rows.length} row(s), lengths ${lengths.join(", ")}.`,
    "",
    `Inputs: ${source}. Tolerances are those of slime's tests/test_discounted_returns.py.`,
    'Run from a slime checkout: pytest this_file.py"""',
    ...(small ? [] : ["import base64"]),
    ...(rpp ? ["import sys", "import types"] : []),
    "",
    ...(small ? [] : ["import numpy as np"]),
    "import torch",
    "",
  ];
  const decoders = small
    ? []
    : [
        "",
        "def _f32(text, shape):",
        '    """Little-endian float32 values from base64 (numpy\'s "<f4")."""',
        '    return torch.from_numpy(np.frombuffer(base64.b64decode(text), dtype="<f4").copy().reshape(shape))',
        "",
        ...(rpp
          ? [
              "",
              "def _bits(text, n):",
              '    """A 0/1 mask packed 8 tokens a byte, least significant bit first."""',
              "    packed = np.frombuffer(base64.b64decode(text), dtype=np.uint8)",
              '    return torch.from_numpy(np.unpackbits(packed, bitorder="little")[:n].astype(np.float32))',
              "",
            ]
          : []),
      ];
  const helpers = [
    ...decoders,
    "",
    "def _serial_discounted_returns(rewards: torch.Tensor, discount: float) -> torch.Tensor:",
    "    returns = torch.zeros_like(rewards)",
    "    running_return = torch.zeros(rewards.size(0), device=rewards.device, dtype=rewards.dtype)",
    "    for t in reversed(range(rewards.size(1))):",
    "        running_return = rewards[:, t] + discount * running_return",
    "        returns[:, t] = running_return",
    "    return returns",
    "",
  ];
  const body =
    state.estimator === "discounted"
      ? discountedTest(state, rows, cols, small)
      : state.estimator === "gae"
        ? gaeTest(state, rows, cols, small)
        : reinforcePPTest(state, rows, small);
  return `${[...head, ...body.imports, ...helpers, ...body.data, ...body.test].join("\n")}\n`;
}

interface Parts {
  imports: string[];
  data: string[];
  test: string[];
}

function discountedTest(state: PlaygroundState, rows: PlaygroundRow[], cols: number, small: boolean): Parts {
  const { atol, rtol } = SLIME_TOLERANCES.discounted;
  return {
    imports: ["from slime.utils.ppo_utils import chunked_discounted_returns", ""],
    data: [
      "",
      `REWARDS = ${matrix(padded(rows, "rewards", cols), rows.length, cols, small)}`,
      `DISCOUNT = ${pyFloat(state.gamma)}`,
      `CHUNK_SIZE = ${state.chunkSize}`,
      "",
    ],
    test: [
      "",
      "def test_chunked_discounted_returns_matches_serial():",
      "    expected = _serial_discounted_returns(REWARDS, DISCOUNT)",
      "    actual = chunked_discounted_returns(REWARDS, DISCOUNT, chunk_size=CHUNK_SIZE)",
      `    torch.testing.assert_close(actual, expected, atol=${sci(atol)}, rtol=${sci(rtol)})`,
    ],
  };
}

function gaeTest(state: PlaygroundState, rows: PlaygroundRow[], cols: number, small: boolean): Parts {
  const { atol, rtol } = SLIME_TOLERANCES.gae;
  return {
    imports: ["from slime.utils.ppo_utils import chunked_gae, vanilla_gae", ""],
    data: [
      "",
      `REWARDS = ${matrix(padded(rows, "rewards", cols), rows.length, cols, small)}`,
      `VALUES = ${matrix(padded(rows, "values", cols), rows.length, cols, small)}`,
      `GAMMA = ${pyFloat(state.gamma)}`,
      `LAMBD = ${pyFloat(state.lambd)}`,
      `CHUNK_SIZE = ${state.chunkSize}`,
      "",
    ],
    test: [
      "",
      "def test_chunked_gae_matches_vanilla_gae():",
      "    expected = vanilla_gae(REWARDS, VALUES, GAMMA, LAMBD)",
      "    actual = chunked_gae(REWARDS, VALUES, GAMMA, LAMBD, chunk_size=CHUNK_SIZE)",
      `    torch.testing.assert_close(actual[0], expected[0], atol=${sci(atol)}, rtol=${sci(rtol)})  # advantages`,
      `    torch.testing.assert_close(actual[1], expected[1], atol=${sci(atol)}, rtol=${sci(rtol)})  # returns`,
    ],
  };
}

function reinforcePPTest(state: PlaygroundState, rows: PlaygroundRow[], small: boolean): Parts {
  const { atol, rtol } = SLIME_TOLERANCES.reinforce_pp;
  const lengths = rows.map((row) => row.length);
  const kl = rows.flatMap((row) => laneOf(row, "kl"));
  const masks = rows.flatMap((row) => laneOf(row, "lossMask"));
  const outcomes = rows.map((row) => row.outcome ?? 0);
  const klTensor = small
    ? `torch.tensor(${floatList(kl)}, dtype=torch.float32)`
    : `_f32(${wrapped(float32ToBase64(kl))}, (${kl.length},))`;
  const maskTensor = small
    ? `torch.tensor([${masks.join(", ")}], dtype=torch.float32)`
    : `_bits(${wrapped(bytesToBase64(packBits(masks)))}, ${masks.length})`;
  const chunkNote =
    state.chunkSize === RPP_CHUNK_SIZE
      ? []
      : [
          `# slime's REINFORCE++ always scans in chunks of ${RPP_CHUNK_SIZE}; the playground's ${state.chunkSize} is not used.`,
        ];
  return {
    imports: ["from slime.utils.ppo_utils import get_reinforce_plus_plus_returns", ""],
    data: [
      "",
      `LENGTHS = [${lengths.join(", ")}]`,
      `OUTCOMES = torch.tensor(${floatList(outcomes)}, dtype=torch.float32)`,
      `KL = list(torch.split(${klTensor}, LENGTHS))`,
      `LOSS_MASKS = list(torch.split(${maskTensor}, LENGTHS))`,
      `KL_COEF = ${pyFloat(state.klCoef)}`,
      `GAMMA = ${pyFloat(state.gamma)}`,
      ...chunkNote,
      "",
    ],
    test: [
      "",
      "def test_reinforce_plus_plus_returns_matches_serial(monkeypatch):",
      "    # Context parallel size 1, stubbed as slime's own test does.",
      "    mpu = types.SimpleNamespace(get_context_parallel_world_size=lambda: 1)",
      '    megatron = types.ModuleType("megatron")',
      '    megatron_core = types.ModuleType("megatron.core")',
      "    megatron_core.mpu = mpu",
      "    megatron.core = megatron_core",
      '    monkeypatch.setitem(sys.modules, "megatron", megatron)',
      '    monkeypatch.setitem(sys.modules, "megatron.core", megatron_core)',
      "",
      "    actual = get_reinforce_plus_plus_returns(",
      "        rewards=OUTCOMES,",
      "        kl=KL,",
      "        loss_masks=LOSS_MASKS,",
      "        response_lengths=LENGTHS,",
      "        total_lengths=LENGTHS,",
      "        kl_coef=KL_COEF,",
      "        gamma=GAMMA,",
      "    )",
      "",
      "    assert len(actual) == len(LENGTHS)",
      "    for reward, kl_for_seq, mask, actual_for_seq in zip(OUTCOMES, KL, LOSS_MASKS, actual, strict=True):",
      "        token_rewards = -KL_COEF * kl_for_seq * mask",
      "        token_rewards[mask.nonzero(as_tuple=True)[0][-1]] += reward",
      "        expected = _serial_discounted_returns(token_rewards.unsqueeze(0), GAMMA)[0]",
      `        torch.testing.assert_close(actual_for_seq, expected, atol=${sci(atol)}, rtol=${sci(rtol)})`,
    ],
  };
}

function caseLine(state: PlaygroundState): string {
  if (state.estimator === "discounted") return `discounted returns, γ ${state.gamma}, chunk size ${state.chunkSize}`;
  if (state.estimator === "gae") return `GAE, γ ${state.gamma}, λ ${state.lambd}, chunk size ${state.chunkSize}`;
  return `REINFORCE++, γ ${state.gamma}, kl_coef ${state.klCoef}`;
}

function dataSource(state: PlaygroundState): string {
  const { data } = state;
  return data.source === "preset"
    ? `Scanlab preset ${data.preset}, seed ${data.seed}`
    : "drawn or imported in the Scanlab playground";
}

function padded(rows: PlaygroundRow[], lane: "rewards" | "values", cols: number): number[] {
  const out = new Array<number>(rows.length * cols).fill(0);
  rows.forEach((row, b) => {
    laneOf(row, lane).forEach((v, t) => {
      out[b * cols + t] = v;
    });
  });
  return out;
}

function matrix(values: number[], rows: number, cols: number, small: boolean): string {
  if (!small) return `_f32(${wrapped(float32ToBase64(values))}, (${rows}, ${cols}))`;
  const lines = Array.from({ length: rows }, (_, b) => `    ${floatList(values.slice(b * cols, (b + 1) * cols))},`);
  return `torch.tensor(\n  [\n${lines.join("\n")}\n  ],\n  dtype=torch.float32,\n)`;
}

function floatList(values: number[]): string {
  return `[${values.map((v) => pyFloat(Math.fround(v), true)).join(", ")}]`;
}

/** A Python float literal: the float64 repr, or with `float32` the shortest text of the float32 value. */
function pyFloat(x: number, float32 = false): string {
  const text = float32 ? float32Text(x) : String(x);
  return /[.en]/.test(text) ? text.replace("e+", "e") : `${text}.0`;
}

/** `1e-5`, as slime's tests write tolerances. */
function sci(x: number): string {
  return x.toExponential();
}

/** A long base64 string as adjacent literals in parentheses, WRAP characters a line. */
function wrapped(base64: string): string {
  if (base64.length <= WRAP) return `"${base64}"`;
  const lines: string[] = [];
  for (let i = 0; i < base64.length; i += WRAP) lines.push(`        "${base64.slice(i, i + WRAP)}"`);
  return `(\n${lines.join("\n")}\n    )`;
}
