import { beforeAll, describe, expect, it } from "vitest";
import { allowingNonFinite, chunkedDiscountedReturns, type ScanProblem, solve } from "../../core";
import { runProblem } from "../../engine/host";
import { useCpuBackend } from "../../testing/engineTestKit";
import {
  coreRun,
  discountedProblem,
  float32Problem,
  gaeProblem,
  reinforceProblem,
  replayOf,
  traceOf,
} from "../../testing/playerTestKit";
import { cellView } from "./cells";
import { errorSummary } from "./errorSummary";
import { frame, matrixView } from "./frame";
import { buildReplay, carriedValue, localIndex, reversedOf } from "./replay";

/** Every real token's (row, t) of a replay. */
function* realTokens(r: { rows: number; lengths: number[] }) {
  for (let b = 0; b < r.rows; b++) for (let t = 0; t < r.lengths[b]; t++) yield [b, t] as const;
}

function expectBitEqual(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string) {
  expect(actual.length, what).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    if (!Object.is(actual[i], expected[i])) {
      throw new Error(`${what}[${i}]: ${actual[i]} is not bit-equal to ${expected[i]}`);
    }
  }
}

const PROBLEMS: [string, ScanProblem][] = [
  ["returns, T = 37 (short chunk), C = 8", discountedProblem(2, 37, 8)],
  ["returns, T = 40 (no padding), C = 8", discountedProblem(3, 40, 8, 0.97, 5)],
  ["GAE, T = 29, C = 4", gaeProblem(2, 29, 4)],
  ["REINFORCE++, ragged 23/40/9, C = 16", reinforceProblem([23, 40, 9], 16)],
];

describe("the replay of core's chunked float32 trace", () => {
  it.each(PROBLEMS)("uses the trace's local scans and carries verbatim (%s)", (_, problem) => {
    const run = coreRun(problem);
    const r = replayOf(problem, run);
    expect(r.localScans).toBe(run.trace.localScans);
    expect(r.carriesIn).toBe(run.trace.carriesIn);
    expect({ nChunks: r.nChunks, pad: r.pad, chunkSize: r.chunkSize }).toEqual({
      nChunks: run.trace.nChunks,
      pad: run.trace.pad,
      chunkSize: run.trace.chunkSize,
    });
  });

  it.each(PROBLEMS)("recombines to core's chunked outputs bit for bit (%s)", (_, problem) => {
    const r = replayOf(problem);
    for (const [b, t] of realTokens(r)) {
      const j = b * r.cols + t;
      if (!Object.is(r.combined[j], r.engineOut[j]))
        throw new Error(`row ${b}, t = ${t}: ${r.combined[j]} ≠ ${r.engineOut[j]}`);
    }
  });

  it("shows at every local step exactly the values of chunkedDiscountedReturns' trace", () => {
    const problem = discountedProblem(2, 21, 4, 0.8, 9);
    const trace = traceOf(problem);
    const r = trace.replay;
    const rewards = {
      rows: 2,
      cols: 21,
      data: Float32Array.from((problem as { rewards: { data: Float64Array } }).rewards.data),
    };
    const core = chunkedDiscountedReturns(rewards, 0.8, { chunkSize: 4 }).trace;
    trace.steps.forEach((step, s) => {
      if (step.kind !== "local") return;
      const f = frame(trace, s, 0);
      for (let b = 0; b < 2; b++) {
        const i = step.chunk * 4 + step.k;
        const cell = cellView(r, f, "local", b, i);
        expect(cell.value).toBe(core.localScans[localIndex(r, b, i)]);
      }
    });
    // The carries the carry steps show are the trace's carriesIn.
    trace.steps.forEach((step, s) => {
      if (step.kind !== "carry") return;
      const f = frame(trace, s, 1);
      expect(f.carry?.carry).toBe(core.carriesIn[1 * r.nChunks + step.chunk]);
    });
  });

  it("fails with a clear message when the trace does not fit the problem", () => {
    const problem = discountedProblem(2, 16, 4);
    const run = coreRun(problem);
    const broken = { ...run, trace: { ...run.trace, carriesIn: run.trace.carriesIn.slice(1) } };
    expect(() => buildReplay(problem, broken, solve(problem, "serial").outputs)).toThrow(/7 carries; expected .* 8/);
  });
});

describe("the replay of a real engine run (tfjs cpu backend)", () => {
  beforeAll(useCpuBackend);

  it.each(PROBLEMS)(
    "recombines the engine's local scans and carries to its outputs bit for bit (%s)",
    async (_, problem) => {
      const run = await runProblem(float32Problem(problem), "chunked");
      const r = replayOf(problem, run);
      expect(r.localScans).toBe(run.trace.localScans);
      const outputs = run.outputs;
      for (const [b, t] of realTokens(r)) {
        const j = b * r.cols + t;
        const engine =
          outputs.kind === "discounted"
            ? outputs.returns[j]
            : outputs.kind === "gae"
              ? outputs.advantages[j]
              : outputs.returns[b][t];
        if (!Object.is(r.combined[j], engine))
          throw new Error(`row ${b}, t = ${t}: replayed ${r.combined[j]}, engine ${engine}`);
        // The carry into each chunk is the previous chunk's last value: the two numbers the player links with an arrow.
        const i = r.cols - 1 - t;
        const c = Math.floor(i / r.chunkSize);
        if (c > 0 && i === c * r.chunkSize) {
          expect(r.carriesIn[b * r.nChunks + c]).toBe(carriedValue(r, b, i - 1));
        }
      }
      const last = frame(traceOf(problem, run), Number.POSITIVE_INFINITY, 0);
      expect(last.step.kind).toBe("compare");
      for (const [b, t] of realTokens(r)) {
        expect(cellView(r, last, "result", b, reversedOf(r, t))).toMatchObject({
          state: "value",
          value: r.engineOut[b * r.cols + t],
        });
      }
    },
  );

  it("keeps GAE's returns and REINFORCE++'s token rewards as the engine gave them", async () => {
    const gae = gaeProblem(2, 13, 4);
    const gaeRun = await runProblem(float32Problem(gae), "chunked");
    const g = replayOf(gae, gaeRun);
    expectBitEqual(g.gae?.returns ?? [], gaeRun.outputs.kind === "gae" ? gaeRun.outputs.returns : [], "GAE returns");

    const rpp = reinforceProblem([5, 11], 4);
    const rppRun = await runProblem(float32Problem(rpp), "chunked");
    const p = replayOf(rpp, rppRun);
    if (rppRun.outputs.kind !== "reinforce_pp") throw new Error("expected REINFORCE++ outputs");
    rppRun.outputs.tokenLevelRewards.forEach((row, b) => {
      expectBitEqual(p.scanned.subarray(b * p.cols, b * p.cols + row.length), row, `token rewards of row ${b}`);
    });
    // Past a short row's end the scanned batch holds the right padding.
    expect(Array.from(p.scanned.subarray(5, 11))).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe("the replay of a problem that opts into NaN and ±Inf (the playground's)", () => {
  const withNaN = (p: ScanProblem): ScanProblem => {
    if (p.kind === "reinforce_pp") {
      const kl = p.batch.kl.map((row) => Float64Array.from(row));
      kl[1][5] = Number.NaN;
      return { ...p, batch: { ...p.batch, kl }, allowNonFinite: true };
    }
    if (p.kind !== "gae") throw new Error("GAE or REINFORCE++ only");
    const values = Float64Array.from(p.values.data);
    values[p.values.cols + 3] = Number.POSITIVE_INFINITY;
    return { ...p, values: { ...p.values, data: values }, allowNonFinite: true };
  };
  it.each([
    ["REINFORCE++, NaN in row 1's KL", withNaN(reinforceProblem([12, 20], 4))],
    ["GAE, +Inf in row 1's values", withNaN(gaeProblem(2, 17, 4))],
  ])(
    "builds it: cells the reference lost are left out, cells only the chunked scan lost are over their bound (%s)",
    (_, problem) => {
      const r = replayOf(problem);
      const summary = errorSummary(r);
      expect(summary.nonFinite).toBeGreaterThan(0);
      // The chunked scan spreads a NaN over its whole chunk (§b.4): those cells, finite in the serial
      // reference, are over their bound; every finite result is within.
      expect(summary.overBound).toBe(summary.nonFiniteOver);
      expect(summary.nonFiniteOver).toBeGreaterThan(0);
      // Row 0 is untouched: every one of its cells is measured.
      expect(summary.cells).toBeGreaterThanOrEqual(r.lengths[0]);
    },
  );
  it("still refuses a NaN when the problem does not opt in", () => {
    const problem = withNaN(reinforceProblem([12, 20], 4));
    const strict = { ...problem, allowNonFinite: false };
    expect(() =>
      buildReplay(
        strict,
        coreRun(problem),
        allowingNonFinite(() => solve(problem, "serial").outputs),
      ),
    ).toThrow(/kl has a non-finite value at row 1, token 5/);
  });
});

describe("a kernel that is not Toeplitz (torch's scalar-loop entries)", () => {
  it("shows the terms the scan multiplied: they add up to its local sums bit for bit", () => {
    // d = 0.5495936876730595, C = 37: torch's M[32][36] = d^4 is not row 0's d^4.
    const r = replayOf(discountedProblem(3, 111, 37, 0.5495936876730595, 4));
    expect(r.kernelPatches?.get(32 * 37 + 36)).toBe(Math.fround(0.09123615));
    for (let b = 0; b < r.rows; b++) {
      for (let c = 0; c < r.nChunks; c++) {
        const view = matrixView(r, b, c, 36);
        const sum = view.terms.reduce((acc, term) => Math.fround(acc + term), 0);
        expect(Object.is(sum, view.sum), `row ${b}, chunk ${c}`).toBe(true);
        expect(view.terms[32]).toBe(Math.fround(view.x[32] * Math.fround(0.09123615)));
      }
    }
  });
});
