import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { base64ToBytes, base64ToFloat32 } from "./float32Base64";
import { laneOf, materializeRows } from "./playgroundProblem";
import type { PlaygroundState } from "./playgroundState";
import { BASE_SETTINGS, DEFAULT_PLAYGROUND_STATE, exampleById } from "./presets";
import { pytestSnippet, SMALL_DATA } from "./pytestSnippet";

const big = (estimator: PlaygroundState["estimator"]): PlaygroundState => ({
  ...BASE_SETTINGS,
  estimator,
  gamma: 0.995,
  lambd: 0.9,
  chunkSize: 64,
  data: { source: "preset", preset: "multi-turn", seed: 5, rows: 3, tokens: 300, ragged: true },
});

/** The base64 literal assigned to `name` (adjacent string literals joined), up to the next assignment. */
function embedded(snippet: string, name: string): string {
  const start = snippet.indexOf(`\n${name} = `) + name.length + 4;
  const end = start + (/\n[A-Z_]+ = |\n\n/.exec(snippet.slice(start))?.index ?? 0);
  return [...snippet.slice(start, end).matchAll(/"([A-Za-z0-9+/=]+)"/g)].map((m) => m[1]).join("");
}

function padded(state: PlaygroundState, lane: "rewards" | "values"): number[] {
  const rows = materializeRows(state);
  const cols = Math.max(...rows.map((r) => r.length));
  return rows.flatMap((row) => [...laneOf(row, lane), ...new Array(cols - row.length).fill(0)]).map(Math.fround);
}

describe("copy as pytest", () => {
  it("checks slime's chunked_discounted_returns against the serial loop with slime's float32 tolerances", () => {
    const state = big("discounted");
    const snippet = pytestSnippet(state);
    expect(snippet).toContain("from slime.utils.ppo_utils import chunked_discounted_returns");
    expect(snippet).toContain("actual = chunked_discounted_returns(REWARDS, DISCOUNT, chunk_size=CHUNK_SIZE)");
    expect(snippet).toContain("torch.testing.assert_close(actual, expected, atol=1e-4, rtol=1e-5)");
    expect(snippet).toMatch(/\nDISCOUNT = 0\.995\nCHUNK_SIZE = 64\n/);
    expect(snippet).toContain(", (3, 300))");
    const decoded = base64ToFloat32(embedded(snippet, "REWARDS"));
    expect(Array.from(decoded as Float32Array)).toEqual(padded(state, "rewards"));
  });

  it("checks chunked_gae against vanilla_gae on both outputs", () => {
    const state = big("gae");
    const snippet = pytestSnippet(state);
    expect(snippet).toContain("from slime.utils.ppo_utils import chunked_gae, vanilla_gae");
    expect(snippet).toContain("actual = chunked_gae(REWARDS, VALUES, GAMMA, LAMBD, chunk_size=CHUNK_SIZE)");
    expect(snippet).toMatch(/\nGAMMA = 0\.995\nLAMBD = 0\.9\nCHUNK_SIZE = 64\n/);
    expect(snippet.match(/atol=1e-5, rtol=1e-5/g)).toHaveLength(2);
    expect(Array.from(base64ToFloat32(embedded(snippet, "VALUES")) as Float32Array)).toEqual(padded(state, "values"));
  });

  it("checks get_reinforce_plus_plus_returns with megatron's mpu stubbed to one context-parallel rank", () => {
    const state = big("reinforce_pp");
    const rows = materializeRows(state);
    const snippet = pytestSnippet(state);
    expect(snippet).toContain("get_context_parallel_world_size=lambda: 1");
    expect(snippet).toContain("kl_coef=KL_COEF,");
    expect(snippet).toContain(`LENGTHS = [${rows.map((r) => r.length).join(", ")}]`);
    expect(snippet).toContain("# slime's REINFORCE++ always scans in chunks of 128; the playground's 64 is not used.");
    const kl = base64ToFloat32(embedded(snippet, "KL")) as Float32Array;
    expect(Array.from(kl)).toEqual(rows.flatMap((r) => laneOf(r, "kl")));
    const bits = base64ToBytes(embedded(snippet, "LOSS_MASKS")) as Uint8Array;
    const masks = rows.flatMap((r) => laneOf(r, "lossMask"));
    expect(masks.map((_, t) => (bits[t >> 3] >> (t & 7)) & 1)).toEqual(masks);
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

  const python = spawnSync("python3", ["-c", "import numpy"], { encoding: "utf8" });
  it.skipIf(python.status !== 0)("is valid Python whose embedded tensors numpy decodes to the same floats", () => {
    const dir = mkdtempSync(join(tmpdir(), "scanlab-pytest-"));
    try {
      const states = [big("gae"), big("reinforce_pp"), exampleById("padding-summed")?.state as PlaygroundState];
      const paths = states.map((state, i) => {
        const path = join(dir, `snippet${i}.py`);
        writeFileSync(path, pytestSnippet(state));
        return path;
      });
      // One interpreter for all three: starting Python with numpy is the slow part.
      const run = spawnSync("python3", ["-c", HARNESS, ...paths], { encoding: "utf8" });
      expect(run.stderr).toBe("");
      const outputs = run.stdout.trim().split("\n");
      states.forEach((state, i) => {
        const tensors = JSON.parse(outputs[i]) as Record<string, number[]>;
        const rows = materializeRows(state);
        if (state.estimator === "reinforce_pp") {
          expect(tensors.KL).toEqual(rows.flatMap((r) => laneOf(r, "kl")));
          expect(tensors.LOSS_MASKS).toEqual(rows.flatMap((r) => laneOf(r, "lossMask")));
          expect(tensors.OUTCOMES).toEqual(rows.map((r) => r.outcome ?? 0));
        } else {
          expect(tensors.REWARDS).toEqual(padded(state, "rewards"));
          if (state.estimator === "gae") expect(tensors.VALUES).toEqual(padded(state, "values"));
        }
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Runs a snippet's module body with numpy standing in for torch and slime, and prints its tensors. */
const HARNESS = `
import json, sys, types
import numpy as np
torch = types.ModuleType("torch")
torch.float32 = np.float32
torch.Tensor = np.ndarray
torch.from_numpy = lambda a: a
torch.tensor = lambda data, dtype=None: np.array(data, dtype=dtype)
torch.split = lambda t, sizes: np.split(t, np.cumsum(sizes)[:-1])
sys.modules["torch"] = torch
ppo = types.ModuleType("slime.utils.ppo_utils")
for name in ["chunked_discounted_returns", "chunked_gae", "vanilla_gae", "get_reinforce_plus_plus_returns"]:
    setattr(ppo, name, None)
sys.modules.update({"slime": types.ModuleType("slime"), "slime.utils": types.ModuleType("slime.utils"), "slime.utils.ppo_utils": ppo})
flat = lambda v: np.concatenate([np.ravel(x) for x in v]) if isinstance(v, list) else np.ravel(v)
names = ["REWARDS", "VALUES", "KL", "LOSS_MASKS", "OUTCOMES"]
for path in sys.argv[1:]:
    ns = {"__name__": "snippet"}
    exec(compile(open(path).read(), path, "exec"), ns)
    print(json.dumps({k: flat(ns[k]).astype(float).tolist() for k in names if k in ns}))
`;
