import { laneOf } from "./playgroundProblem";
import type { PlaygroundRow, PlaygroundState } from "./playgroundState";
import { type LaneWriter, pyFloat } from "./pythonLanes";
import { RPP_CHUNK_SIZE, SLIME_TOLERANCES } from "./slimeTolerance";

/**
 * The estimator-specific parts of the pytest export (pytestSnippet.ts): the imports of slime's
 * functions, the input tensors and parameters, and the two tests, slime's own assertion as its
 * tests/test_discounted_returns.py makes it and Scanlab's against SCANLAB_<OUTPUT>.
 */
export interface Parts {
  imports: string[];
  data: string[];
  setup: string[];
  slimeTest: string[];
  scanlabTest: string[];
}

export function discountedTest(state: PlaygroundState, rows: PlaygroundRow[], cols: number, lanes: LaneWriter): Parts {
  const { atol, rtol } = SLIME_TOLERANCES.discounted;
  return {
    imports: ["from slime.utils.ppo_utils import chunked_discounted_returns"],
    data: [
      "",
      `REWARDS = ${lanes.lane(padded(rows, "rewards", cols), [rows.length, cols], "float32")}`,
      `DISCOUNT = ${pyFloat(state.gamma)}`,
      `CHUNK_SIZE = ${state.chunkSize}`,
    ],
    setup: [],
    slimeTest: [
      "def test_chunked_discounted_returns_matches_serial():",
      "    expected = _serial_discounted_returns(REWARDS, DISCOUNT)",
      "    actual = chunked_discounted_returns(REWARDS, DISCOUNT, chunk_size=CHUNK_SIZE)",
      `    torch.testing.assert_close(actual, expected, atol=${sci(atol)}, rtol=${sci(rtol)})`,
    ],
    scanlabTest: [
      "def test_chunked_discounted_returns_within_scanlab_bound():",
      "    actual = chunked_discounted_returns(REWARDS, DISCOUNT, chunk_size=CHUNK_SIZE)",
      '    _assert_within_scanlab_bound("returns", actual, SCANLAB_RETURNS, SCANLAB_RETURNS_BOUND)',
    ],
  };
}

export function gaeTest(state: PlaygroundState, rows: PlaygroundRow[], cols: number, lanes: LaneWriter): Parts {
  const { atol, rtol } = SLIME_TOLERANCES.gae;
  const shape = [rows.length, cols];
  return {
    imports: ["from slime.utils.ppo_utils import chunked_gae, vanilla_gae"],
    data: [
      "",
      `REWARDS = ${lanes.lane(padded(rows, "rewards", cols), shape, "float32")}`,
      `VALUES = ${lanes.lane(padded(rows, "values", cols), shape, "float32")}`,
      `GAMMA = ${pyFloat(state.gamma)}`,
      `LAMBD = ${pyFloat(state.lambd)}`,
      `CHUNK_SIZE = ${state.chunkSize}`,
    ],
    setup: [],
    slimeTest: [
      "def test_chunked_gae_matches_vanilla_gae():",
      "    expected = vanilla_gae(REWARDS, VALUES, GAMMA, LAMBD)",
      "    actual = chunked_gae(REWARDS, VALUES, GAMMA, LAMBD, chunk_size=CHUNK_SIZE)",
      `    torch.testing.assert_close(actual[0], expected[0], atol=${sci(atol)}, rtol=${sci(rtol)})  # advantages`,
      `    torch.testing.assert_close(actual[1], expected[1], atol=${sci(atol)}, rtol=${sci(rtol)})  # returns`,
    ],
    scanlabTest: [
      "def test_chunked_gae_within_scanlab_bound():",
      "    advantages, returns = chunked_gae(REWARDS, VALUES, GAMMA, LAMBD, chunk_size=CHUNK_SIZE)",
      '    _assert_within_scanlab_bound("advantages", advantages, SCANLAB_ADVANTAGES, SCANLAB_ADVANTAGES_BOUND)',
      '    _assert_within_scanlab_bound("returns", returns, SCANLAB_RETURNS, SCANLAB_RETURNS_BOUND)',
    ],
  };
}

export function reinforcePPTest(state: PlaygroundState, rows: PlaygroundRow[], lanes: LaneWriter): Parts {
  const { atol, rtol } = SLIME_TOLERANCES.reinforce_pp;
  const lengths = rows.map((row) => row.length);
  const total = lengths.reduce((sum, n) => sum + n, 0);
  const kl = rows.flatMap((row) => laneOf(row, "kl").map(Math.fround));
  const masks = rows.flatMap((row) => laneOf(row, "lossMask"));
  const outcomes = rows.map((row) => Math.fround(row.outcome ?? 0));
  const chunkNote =
    state.chunkSize === RPP_CHUNK_SIZE
      ? []
      : [
          `# slime's REINFORCE++ always scans in chunks of ${RPP_CHUNK_SIZE}; the playground's ${state.chunkSize} is not used.`,
        ];
  return {
    imports: ["from slime.utils.ppo_utils import get_reinforce_plus_plus_returns"],
    data: [
      "",
      `LENGTHS = [${lengths.join(", ")}]`,
      `OUTCOMES = ${lanes.lane(outcomes, [rows.length], "float32")}`,
      `KL = list(torch.split(${lanes.lane(kl, [total], "float32")}, LENGTHS))`,
      `LOSS_MASKS = list(torch.split(${lanes.lane(masks, [total], "mask")}, LENGTHS))`,
      `KL_COEF = ${pyFloat(state.klCoef)}`,
      `GAMMA = ${pyFloat(state.gamma)}`,
      ...chunkNote,
    ],
    setup: [
      "",
      "@pytest.fixture",
      "def one_context_parallel_rank(monkeypatch):",
      "    # Context parallel size 1, stubbed as slime's own test does.",
      "    mpu = types.SimpleNamespace(get_context_parallel_world_size=lambda: 1)",
      '    megatron = types.ModuleType("megatron")',
      '    megatron_core = types.ModuleType("megatron.core")',
      "    megatron_core.mpu = mpu",
      "    megatron.core = megatron_core",
      '    monkeypatch.setitem(sys.modules, "megatron", megatron)',
      '    monkeypatch.setitem(sys.modules, "megatron.core", megatron_core)',
      "",
      "",
      "def _slime_returns():",
      "    return get_reinforce_plus_plus_returns(",
      "        rewards=OUTCOMES,",
      "        kl=KL,",
      "        loss_masks=LOSS_MASKS,",
      "        response_lengths=LENGTHS,",
      "        total_lengths=LENGTHS,",
      "        kl_coef=KL_COEF,",
      "        gamma=GAMMA,",
      "    )",
      "",
    ],
    slimeTest: [
      "def test_reinforce_plus_plus_returns_matches_serial(one_context_parallel_rank):",
      "    slime_returns = _slime_returns()",
      "    assert len(slime_returns) == len(LENGTHS)",
      "    for reward, kl_for_seq, mask, actual_for_seq in zip(OUTCOMES, KL, LOSS_MASKS, slime_returns, strict=True):",
      "        token_rewards = -KL_COEF * kl_for_seq * mask",
      "        token_rewards[mask.nonzero(as_tuple=True)[0][-1]] += reward",
      "        expected = _serial_discounted_returns(token_rewards.unsqueeze(0), GAMMA)[0]",
      `        torch.testing.assert_close(actual_for_seq, expected, atol=${sci(atol)}, rtol=${sci(rtol)})`,
    ],
    scanlabTest: [
      "def test_reinforce_plus_plus_returns_within_scanlab_bound(one_context_parallel_rank):",
      "    slime_returns = _slime_returns()",
      "    assert [len(r) for r in slime_returns] == LENGTHS",
      '    _assert_within_scanlab_bound("returns", torch.cat(slime_returns), SCANLAB_RETURNS, SCANLAB_RETURNS_BOUND)',
    ],
  };
}

function padded(rows: PlaygroundRow[], lane: "rewards" | "values", cols: number): number[] {
  const out = new Array<number>(rows.length * cols).fill(0);
  rows.forEach((row, b) => {
    laneOf(row, lane).forEach((v, t) => {
      out[b * cols + t] = Math.fround(v);
    });
  });
  return out;
}

/** `1e-5`, as slime's tests write tolerances. */
function sci(x: number): string {
  return x.toExponential();
}
