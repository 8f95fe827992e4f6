import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzlibSync } from "fflate";
import { describe, expect, it } from "vitest";
import { outputErrorBounds } from "../core";
import { base64ToBytes } from "./float32Base64";
import { laneOf, materializeRows } from "./playgroundProblem";
import type { PlaygroundRow, PlaygroundState } from "./playgroundState";
import { BASE_SETTINGS, DEFAULT_PLAYGROUND_STATE, exampleById } from "./presets";
import { pytestExport, pytestPrediction, pytestSnippet, SMALL_DATA } from "./pytestSnippet";
import { namedOutputs, slimeProblem, slimeSides } from "./slimeTolerance";

const big = (estimator: PlaygroundState["estimator"]): PlaygroundState => ({
  ...BASE_SETTINGS,
  estimator,
  gamma: 0.995,
  lambd: 0.9,
  chunkSize: 64,
  data: { source: "preset", preset: "multi-turn", seed: 5, rows: 3, tokens: 300, ragged: true },
});

const inline = (estimator: PlaygroundState["estimator"], rows: PlaygroundRow[], settings = {}): PlaygroundState => ({
  ...BASE_SETTINGS,
  estimator,
  ...settings,
  data: { source: "inline", rows },
});

/** The compressed bytes assigned to `name` (adjacent string literals joined), up to the next assignment. */
function embedded(snippet: string, name: string): Uint8Array {
  const start = snippet.indexOf(`\n${name} = `) + name.length + 4;
  const end = start + (/\n[A-Z_]+ = |\n\n/.exec(snippet.slice(start))?.index ?? 0);
  const expression = snippet.slice(start, end);
  const text = [...expression.matchAll(/"([A-Za-z0-9+/=]+)"/g)].map((m) => m[1]).join("");
  return unzlibSync(base64ToBytes(text) as Uint8Array);
}

const floats = (bytes: Uint8Array) => Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));

function padded(state: PlaygroundState, lane: "rewards" | "values"): number[] {
  const rows = materializeRows(state);
  const cols = Math.max(...rows.map((r) => r.length));
  return rows.flatMap((row) => [...laneOf(row, lane), ...new Array(cols - row.length).fill(0)]).map(Math.fround);
}

describe("copy as pytest: slime's own assertion", () => {
  it("checks slime's chunked_discounted_returns against the serial loop with slime's float32 tolerances", () => {
    const state = big("discounted");
    const snippet = pytestSnippet(state);
    expect(snippet).toContain("from slime.utils.ppo_utils import chunked_discounted_returns");
    expect(snippet).toContain("actual = chunked_discounted_returns(REWARDS, DISCOUNT, chunk_size=CHUNK_SIZE)");
    expect(snippet).toContain("torch.testing.assert_close(actual, expected, atol=1e-4, rtol=1e-5)");
    expect(snippet).toMatch(/\nDISCOUNT = 0\.995\nCHUNK_SIZE = 64\n/);
    expect(snippet).toContain(", (3, 300))");
    expect(floats(embedded(snippet, "REWARDS"))).toEqual(padded(state, "rewards"));
  });

  it("checks chunked_gae against vanilla_gae on both outputs", () => {
    const state = big("gae");
    const snippet = pytestSnippet(state);
    expect(snippet).toContain("from slime.utils.ppo_utils import chunked_gae, vanilla_gae");
    expect(snippet).toContain("actual = chunked_gae(REWARDS, VALUES, GAMMA, LAMBD, chunk_size=CHUNK_SIZE)");
    expect(snippet).toMatch(/\nGAMMA = 0\.995\nLAMBD = 0\.9\nCHUNK_SIZE = 64\n/);
    expect(snippet.match(/atol=1e-5, rtol=1e-5/g)).toHaveLength(2);
    expect(floats(embedded(snippet, "VALUES"))).toEqual(padded(state, "values"));
  });

  it("checks get_reinforce_plus_plus_returns with megatron's mpu stubbed to one context-parallel rank", () => {
    const state = big("reinforce_pp");
    const rows = materializeRows(state);
    const snippet = pytestSnippet(state);
    expect(snippet).toContain("get_context_parallel_world_size=lambda: 1");
    expect(snippet).toContain("kl_coef=KL_COEF,");
    expect(snippet).toContain(`LENGTHS = [${rows.map((r) => r.length).join(", ")}]`);
    expect(snippet).toContain("# slime's REINFORCE++ always scans in chunks of 128; the playground's 64 is not used.");
    expect(floats(embedded(snippet, "KL"))).toEqual(rows.flatMap((r) => laneOf(r, "kl")).map(Math.fround));
    const bits = embedded(snippet, "LOSS_MASKS");
    const masks = rows.flatMap((r) => laneOf(r, "lossMask"));
    expect(masks.map((_, t) => (bits[t >> 3] >> (t & 7)) & 1)).toEqual(masks);
  });
});

describe("copy as pytest: Scanlab's assertion", () => {
  it("embeds Scanlab's float64 reference and a bound no looser than Scanlab's, for every output", () => {
    const state = big("gae");
    const snippet = pytestSnippet(state);
    expect(snippet).toContain("def test_chunked_gae_within_scanlab_bound():");
    expect(snippet).toContain(
      '_assert_within_scanlab_bound("advantages", advantages, SCANLAB_ADVANTAGES, SCANLAB_ADVANTAGES_BOUND)',
    );
    const rows = materializeRows(state);
    const truth = slimeSides(state, rows).truth;
    const bounds = namedOutputs(
      outputErrorBounds(slimeProblem(state, "float64", rows), { precision: "float32", algorithm: "chunked" }),
    );
    for (const name of ["advantages", "returns"]) {
      const upper = name.toUpperCase();
      const reference = floats(embedded(snippet, `SCANLAB_${upper}`));
      const bound = floats(embedded(snippet, `SCANLAB_${upper}_BOUND`));
      expect(reference).toHaveLength(truth[name].length);
      reference.forEach((r, i) => {
        // Whatever lies within the written bound of the written reference lies within Scanlab's bound of the truth.
        const slack = Math.abs(r - truth[name][i]);
        expect(bound[i] + slack).toBeLessThanOrEqual(bounds[name][i]);
        // ... and the bound is not tightened past what the float32 reference and 8 significant bits need.
        expect(bound[i]).toBeGreaterThanOrEqual((bounds[name][i] - slack) * (1 - 2 ** -7) * (1 - 2 ** -23));
      });
    }
  });

  it("writes small outputs as float64 lists: the reference exactly, the bound exactly", () => {
    const state = exampleById("kl-on-tool-tokens-fixed")?.state ?? DEFAULT_PLAYGROUND_STATE;
    const snippet = pytestSnippet(state);
    const truth = slimeSides(state).truth.returns;
    expect(snippet).toContain(
      `SCANLAB_RETURNS = torch.tensor([${Array.from(truth, (v) => (Number.isInteger(v) ? `${v}.0` : String(v))).join(", ")}], dtype=torch.float64)`,
    );
    expect(snippet).toMatch(
      /\nSCANLAB_RETURNS_BOUND = torch\.tensor\(\[[0-9e.-]+(, [0-9e.-]+){3}\], dtype=torch\.float64\)/,
    );
    expect(snippet).toContain("def test_reinforce_plus_plus_returns_within_scanlab_bound(one_context_parallel_rank):");
  });

  it("holds NaN and ±inf where Scanlab's emulation of slime's scan has them, written so Python imports it", () => {
    const state = exampleById("nan-one-token")?.state as PlaygroundState;
    const small: PlaygroundState = inline("discounted", [{ length: 6, rewards: [1, Number.NaN, 2, 3, Infinity, 4] }], {
      chunkSize: 2,
      gamma: 0.5,
    });
    const text = pytestSnippet(small);
    // Bare `nan` or `inf` is a NameError on import; the float() forms are what Python reads.
    expect(text).not.toMatch(/[[(,\s]-?(nan|inf)[\],)\s]/);
    expect(text).toContain('[1.0, float("nan"), 2.0, 3.0, float("inf"), 4.0]');
    // slime's chunks (reversed, C = 2) are tokens 5–4, 3–2, 1–0: inf·0 poisons token 5 (after the inf) with NaN,
    // the carry takes inf into tokens 3–2, the NaN at token 1 poisons its chunk. Nothing is left to bound.
    expect(text).toContain('    [float("nan"), float("nan"), float("inf"), float("inf"), float("inf"), float("nan")],');
    expect(text).toContain("SCANLAB_RETURNS_BOUND = torch.zeros((1, 6), dtype=torch.float64)");
    const big = pytestExport(state);
    expect(big.prediction.nonFinite).toBe(172);
    const reference = floats(embedded(big.text, "SCANLAB_RETURNS"));
    expect(reference.filter(Number.isNaN)).toHaveLength(172);
  });
});

describe("copy as pytest: where slime refuses the inputs", () => {
  it("expects slime's own AssertionError for a fully masked REINFORCE++ row, as Scanlab's reference raises it", () => {
    const rows: PlaygroundRow[] = [
      { length: 3, kl: [0.1, 0.2, 0.3], lossMask: [1, 1, 1], outcome: 1 },
      { length: 2, kl: [0.1, 0.2], lossMask: [0, 0], outcome: 1 },
    ];
    const { text, prediction } = pytestExport(inline("reinforce_pp", rows));
    expect(prediction.verdict).toBe("raises");
    expect(prediction.summary).toContain("AssertionError: Sequence at index 1 is fully masked.");
    expect(text).toContain(
      'with pytest.raises(AssertionError, match=re.escape("Sequence at index 1 is fully masked.")):\n        _slime_returns()',
    );
    expect(text).toContain("\nimport re\n");
    expect(text).not.toContain("SCANLAB_RETURNS");
  });
});

describe("copy as pytest: xfail where slime's tolerance is too tight", () => {
  it("marks slime's assertion xfail with Scanlab's numbers when its float32 loop drifts past its tolerance", () => {
    const state: PlaygroundState = {
      ...BASE_SETTINGS,
      estimator: "gae",
      gamma: 0.99999,
      lambd: 1,
      data: { source: "preset", preset: "dense", seed: 1, rows: 4, tokens: 5000, ragged: false },
    };
    const { text, prediction } = pytestExport(state);
    expect(prediction.verdict).toBe("fails");
    expect(text).toContain(
      "@pytest.mark.xfail(reason=SLIME_TOLERANCE_XFAIL, strict=False)\ndef test_chunked_gae_matches_vanilla_gae():",
    );
    expect(text).toContain(
      "SLIME_TOLERANCE_XFAIL = \"Scanlab predicted: slime's own tolerance (atol 1e-5, rtol 1e-5) fails on 6,559 of 40,000 elements",
    );
    // Scanlab's own assertion is never marked.
    expect(text).toMatch(/\n\n\ndef test_chunked_gae_within_scanlab_bound\(\):/);
    expect(text.match(/@pytest\.mark\.xfail/g)).toHaveLength(1);
  });

  it("predicts without writing the file what the file then says (the menu's notice)", () => {
    for (const state of [big("gae"), exampleById("nan-one-token")?.state as PlaygroundState]) {
      expect(pytestPrediction(state)).toEqual(pytestExport(state).prediction);
    }
  });

  it("marks nothing where slime's tolerance holds with margin", () => {
    const { text, prediction } = pytestExport(big("discounted"));
    expect(prediction.verdict).toBe("passes");
    expect(text).not.toContain("xfail");
  });
});

describe("copy as pytest: size", () => {
  it("writes constant lanes as torch.zeros and torch.full, not bytes", () => {
    const rows = Array.from({ length: 8 }, (_, b) => ({ length: 3000, outcome: b % 2 ? 1 : -1 }));
    const text = pytestSnippet(inline("reinforce_pp", rows));
    expect(text).toContain("KL = list(torch.split(torch.zeros((24000,), dtype=torch.float32), LENGTHS))");
    expect(text).toContain("LOSS_MASKS = list(torch.split(torch.full((24000,), 1.0, dtype=torch.float32), LENGTHS))");
    // It was 149 KB, 128 KB of them the base64 of 24,000 zeros; now it is mostly Scanlab's reference.
    expect(text.length).toBeLessThan(60_000);
  });

  it("writes small inputs as readable, exact lists", () => {
    const state = exampleById("reward-at-eos")?.state ?? DEFAULT_PLAYGROUND_STATE;
    const snippet = pytestSnippet(state);
    expect(snippet).not.toContain("base64");
    expect(snippet).toContain("    [0.4, 0.5, 0.6, 0.0],");
    const rpp = pytestSnippet(exampleById("kl-on-tool-tokens-fixed")?.state ?? DEFAULT_PLAYGROUND_STATE);
    expect(rpp).toContain("LOSS_MASKS = list(torch.split(torch.tensor([1, 0, 0, 1], dtype=torch.float32), LENGTHS))");
    expect(rpp).toContain("KL_COEF = 1.0\nGAMMA = 0.9\n");
    expect(SMALL_DATA).toBe(256);
  });
});

describe("copy as pytest: Python reads it", () => {
  const python = spawnSync("python3", ["-c", "import numpy"], { encoding: "utf8" });
  it.skipIf(python.status !== 0)("is valid Python whose embedded tensors numpy decodes to the same floats", () => {
    const dir = mkdtempSync(join(tmpdir(), "scanlab-pytest-"));
    try {
      const nan = inline("discounted", [
        {
          length: 300,
          rewards: Array.from({ length: 300 }, (_, t) => (t === 9 ? Number.NaN : t === 99 ? -Infinity : 0.25)),
        },
      ]);
      const states = [big("gae"), big("reinforce_pp"), exampleById("padding-summed")?.state as PlaygroundState, nan];
      const paths = states.map((state, i) => {
        const path = join(dir, `snippet${i}.py`);
        writeFileSync(path, pytestSnippet(state));
        return path;
      });
      // One interpreter for all: starting Python with numpy is the slow part.
      const run = spawnSync("python3", ["-c", HARNESS, ...paths], { encoding: "utf8" });
      expect(run.stderr).toBe("");
      const outputs = run.stdout.trim().split("\n");
      states.forEach((state, i) => {
        const tensors = JSON.parse(outputs[i]) as Record<string, (number | string)[]>;
        const rows = materializeRows(state);
        const sides = slimeSides(state, rows);
        const asJson = (values: ArrayLike<number>) => Array.from(values, (v) => (Number.isFinite(v) ? v : String(v)));
        if (state.estimator === "reinforce_pp") {
          expect(tensors.KL).toEqual(rows.flatMap((r) => laneOf(r, "kl")).map(Math.fround));
          expect(tensors.LOSS_MASKS).toEqual(rows.flatMap((r) => laneOf(r, "lossMask")));
          expect(tensors.OUTCOMES).toEqual(rows.map((r) => Math.fround(r.outcome ?? 0)));
        } else {
          expect(tensors.REWARDS).toEqual(asJson(padded(state, "rewards")));
          if (state.estimator === "gae") expect(tensors.VALUES).toEqual(padded(state, "values"));
        }
        const reference = tensors.SCANLAB_RETURNS;
        expect(reference).toHaveLength(sides.truth.returns.length);
        reference.forEach((r, t) => {
          const chunked = sides.chunked.returns[t];
          if (Number.isFinite(chunked)) expect(Math.abs((r as number) - sides.truth.returns[t])).toBeLessThan(1e-6);
          else expect(r).toBe(String(chunked));
        });
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Runs a snippet's module body with numpy standing in for torch, pytest and slime, and prints its tensors. */
const HARNESS = `
import json, math, sys, types
import numpy as np
class T(np.ndarray):
    def double(self):
        return self.astype(np.float64).view(T)
torch = types.ModuleType("torch")
torch.float32, torch.float64 = np.float32, np.float64
torch.Tensor = np.ndarray
torch.from_numpy = lambda a: a.view(T)
torch.tensor = lambda data, dtype=None: np.array(data, dtype=dtype).view(T)
torch.zeros = lambda shape, dtype=None: np.zeros(shape, dtype=dtype).view(T)
torch.full = lambda shape, value, dtype=None: np.full(shape, value, dtype=dtype).view(T)
torch.split = lambda t, sizes: np.split(t, np.cumsum(sizes)[:-1])
pytest = types.ModuleType("pytest")
pytest.fixture = lambda f: f
pytest.mark = types.SimpleNamespace(xfail=lambda **kw: (lambda f: f))
sys.modules.update({"torch": torch, "pytest": pytest})
ppo = types.ModuleType("slime.utils.ppo_utils")
for name in ["chunked_discounted_returns", "chunked_gae", "vanilla_gae", "get_reinforce_plus_plus_returns"]:
    setattr(ppo, name, None)
sys.modules.update({"slime": types.ModuleType("slime"), "slime.utils": types.ModuleType("slime.utils"), "slime.utils.ppo_utils": ppo})
flat = lambda v: np.concatenate([np.ravel(x) for x in v]) if isinstance(v, list) else np.ravel(v)
number = lambda x: x if math.isfinite(x) else ("NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity"))
names = ["REWARDS", "VALUES", "KL", "LOSS_MASKS", "OUTCOMES", "SCANLAB_RETURNS"]
for path in sys.argv[1:]:
    ns = {"__name__": "snippet"}
    exec(compile(open(path).read(), path, "exec"), ns)
    print(json.dumps({k: [number(x) for x in flat(ns[k]).astype(float).tolist()] for k in names if k in ns}))
`;
