import { describe, expect, it } from "vitest";
import { runBin, scanlab } from "../testing/cliTestKit";

/** slime's response indices from the definition, token by token (CONTEXT_PARALLEL.md). */
function expectedIndices(T: number, R: number, n: number): number[][] {
  const c = Math.ceil(T / (2 * n));
  const ranks = Array.from({ length: n }, () => [[], []] as number[][]);
  for (let k = 0; k < R; k++) {
    const chunk = Math.floor((T - R - 1 + k) / c);
    ranks[Math.min(chunk, 2 * n - 1 - chunk)][chunk < n ? 0 : 1].push(k);
  }
  return ranks.map(([first, second]) => [...first, ...second]);
}

const layoutArgs = (T: number, R: number, n: number) => [
  "cp-layout",
  "--total-length",
  String(T),
  "--response-length",
  String(R),
  "--cp-size",
  String(n),
];

describe("scanlab cp-layout", () => {
  it("prints each rank's response indices in local order with --json (the worked example)", async () => {
    const result = await scanlab([...layoutArgs(20, 12, 2), "--json"]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout);
    expect(report.ranks.map((r: { rank: number; response_indices: number[] }) => [r.rank, r.response_indices])).toEqual(
      [
        [0, [8, 9, 10, 11]],
        [1, [0, 1, 2, 3, 4, 5, 6, 7]],
      ],
    );
    expect(report.ranks[0].chunks[0]).toEqual({
      chunk: 0,
      positions: [0, 5],
      logits: null,
      response: null,
      local_offset: 0,
    });
    expect(report.ppo_reward_placement).toMatchObject({ last_token: 11, lands_at: 11, correct: true });
  });

  it("gives slime's indices for layouts no test has seen", async () => {
    // Drawn with a fixed seed so a failure can be replayed.
    let state = 20261129;
    const next = (max: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return 1 + (state % max);
    };
    for (let i = 0; i < 25; i++) {
      const n = next(8);
      const T = 1 + next(3000);
      const R = next(T - 1);
      const report = JSON.parse((await scanlab([...layoutArgs(T, R, n), "--json"])).stdout);
      const got = report.ranks.map((r: { response_indices: number[] }) => r.response_indices);
      expect(got, `T = ${T}, R = ${R}, cp_size ${n}`).toEqual(expectedIndices(T, R, n));
    }
  });

  it("prints a table per rank and warns where PPO's reward misses the last token", async () => {
    const fine = await scanlab(layoutArgs(20, 12, 2));
    expect(fine.stdout).toContain("total length 20 = prompt 8 + response 12, cp_size 2");
    expect(fine.stdout).toMatch(/^0 +0 +0–4 +none +none +none$/m);
    expect(fine.stdout).toMatch(/^ +3 +15–19 +15–18 +8–11 +0–3$/m);
    expect(fine.stdout).not.toContain("WARNING");
    const short = await scanlab(layoutArgs(30, 29, 8));
    expect(short.status).toBe(0);
    expect(short.stdout).toContain(
      "PPO reward placement: WARNING rank 0's last local element is response token 1, not the last one (28)",
    );
    const none = await scanlab(layoutArgs(13, 6, 2));
    expect(none.stdout).toContain("rank 0 holds no response token");
    expect(none.stdout).toContain("IndexError: index -1 is out of bounds for dimension 0 with size 0");
  });

  it("refuses bad arguments with a message and status 2", async () => {
    const cases: [string[], string][] = [
      [["cp-layout", "--total-length", "20", "--cp-size", "2"], "cp-layout needs --response-length"],
      [layoutArgs(20, 12, 0), '--cp-size must be a whole number from 1 to 1024; got "0"'],
      [
        layoutArgs(20, 12, 2).map((a) => (a === "20" ? "2e1" : a)),
        '--total-length must be a whole number from 2 to 16777216; got "2e1"',
      ],
      [
        ["cp-layout", "--total-length", "20", "--response-length=-3", "--cp-size", "2"],
        '--response-length must be a whole number from 1 to 16777216; got "-3"',
      ],
      [layoutArgs(20, 12, 2).map((a) => (a === "12" ? "-3" : a)), "Option '--response-length' argument is ambiguous"],
      [
        layoutArgs(20, 20, 2),
        "--response-length 20 leaves no prompt token in --total-length 20; it must be at most 19",
      ],
      [[...layoutArgs(20, 12, 2), "--cp-size", "4"], "--cp-size is given more than once"],
      [[...layoutArgs(20, 12, 2), "extra"], "unexpected argument: extra"],
      [[...layoutArgs(20, 12, 2), "--mode", "float32"], "Unknown option '--mode'"],
    ];
    for (const [argv, message] of cases) {
      const result = await scanlab(argv);
      expect(result.status, argv.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr, argv.join(" ")).toContain(`scanlab: ${message}`);
    }
  });

  it("is in the usage text", async () => {
    const help = await scanlab(["cp-layout", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: scanlab cp-layout --total-length T --response-length R --cp-size N [--json]");
    expect((await scanlab(["--help"])).stdout).toMatch(/^ {2}cp-layout\b/m);
  });

  it("runs from bin/ as `npx scanlab cp-layout` does", async () => {
    const ok = await runBin([...layoutArgs(100, 60, 4), "--json"]);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout).ranks.map((r: { response_indices: number[] }) => r.response_indices)).toEqual(
      expectedIndices(100, 60, 4),
    );
    const bad = await runBin(layoutArgs(100, 100, 4));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--response-length 100 leaves no prompt token");
  });
});
