/**
 * The bench worker: measures a plan off the main thread, so the page stays responsive while it runs.
 * It hosts the engine itself (engine/host.ts: runProblem, the backends), not the playground's engine client:
 * a benchmark times the engine, not the messages around it. Cancelling is `worker.terminate()`.
 */
import * as tf from "@tensorflow/tfjs-core";
import * as Comlink from "comlink";
import { initBackend, probeWebGPU, runProblem } from "../../engine/host";
import type { BackendName } from "../../names/backends";
import { STRATEGY_ALGORITHM } from "../../names/strategies";
import {
  type BenchCase,
  type BenchPlan,
  caseLabel,
  JS_LOOP,
  NO_BACKEND,
  planCases,
  sideBySideGroups,
  sizeLabel,
} from "./benchPlan";
import type { BenchEnvironment, BenchRow } from "./benchResult";
import { jsLoopReturns } from "./jsLoop";
import { type MeasureHooks, type Measurement, measureRuns, measureSideBySide } from "./measureRuns";
import { checkRun } from "./runCheck";
import { elementBounds, makeSizeData, rowPrefixes, type SizeData } from "./sizeData";
import {
  type Calibration,
  calibrationCols,
  EXTRA_RUNS,
  estimatePerToken,
  skipNote,
  warmupSkipNote,
} from "./skipEstimate";

export type BenchEvent =
  | { type: "case"; index: number; total: number; label: string }
  | { type: "row"; index: number; total: number; row: BenchRow };

export interface BenchWorkerApi {
  describe(): Promise<BenchEnvironment>;
  /** Measures every case of the plan in order, reporting each before it starts and when it ends. */
  run(plan: BenchPlan, onEvent: (event: BenchEvent) => unknown): Promise<void>;
}

const api: BenchWorkerApi = {
  async describe() {
    const probe = await probeWebGPU();
    const a = probe.adapter;
    const adapter = a
      ? [a.vendor, a.architecture, a.description].filter(Boolean).join(" / ") +
        (a.isFallbackAdapter ? " (software fallback adapter)" : "")
      : `no WebGPU: ${probe.reason ?? "unknown reason"}`;
    return {
      userAgent: navigator.userAgent,
      hardwareConcurrency: navigator.hardwareConcurrency,
      adapter,
      hasWebGPU: a !== undefined,
    };
  },

  async run(plan, onEvent) {
    const cases = planCases(plan);
    const session = new Session(plan);
    let index = 0;
    for (const group of sideBySideGroups(cases)) {
      const label = group.length === 1 ? caseLabel(group[0]) : `${group.map(caseLabel).join(", ")}, side by side`;
      await onEvent({ type: "case", index, total: cases.length, label });
      const rows = group.length === 1 ? [await session.measure(group[0])] : await session.measureSideBySide(group);
      for (const row of rows) await onEvent({ type: "row", index: index++, total: cases.length, row });
    }
  },
};

Comlink.expose(api);

/** The inputs, references and bounds of one plan, built once and shared by its rows. */
class Session {
  private readonly data = new Map<string, SizeData>();
  private readonly bounds = new Map<string, Float64Array>();
  private backend?: string;
  private backendFailure?: string;

  constructor(private readonly plan: BenchPlan) {}

  /** Rows of one backend and size timed in turn (sideBySideGroups); any failure fails them all, named. */
  async measureSideBySide(group: readonly BenchCase[]): Promise<BenchRow[]> {
    const empties = group.map(emptyRow);
    try {
      const failure = await this.switchBackend(group[0].backend as BackendName);
      if (failure) return empties.map((e) => ({ ...e, status: "unavailable", note: failure }));
      const hooks = group.map((c) => this.hooks(c, this.sizeData(c)));
      const measured = await measureSideBySide(this.plan.reps, hooks);
      return measured.map((m, i) => rowOf(m, empties[i]));
    } catch (error) {
      return empties.map((e) => ({ ...e, note: `failed: ${error instanceof Error ? error.message : String(error)}` }));
    }
  }

  async measure(c: BenchCase): Promise<BenchRow> {
    const empty = emptyRow(c);
    try {
      if (c.backend !== NO_BACKEND) {
        const failure = await this.switchBackend(c.backend);
        if (failure) return { ...empty, status: "unavailable", note: failure };
      }
      return await this.time(c, empty);
    } catch (error) {
      return { ...empty, note: `failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  private async switchBackend(name: BackendName): Promise<string | undefined> {
    if (this.backend === name) return this.backendFailure;
    this.backend = name;
    const report = await initBackend(name);
    this.backendFailure =
      report.backend === name
        ? undefined
        : `the ${name} backend did not come up (${report.reason ?? "no reason given"})`;
    return this.backendFailure;
  }

  private sizeData(c: BenchCase): SizeData {
    const key = sizeLabel(c.size);
    let data = this.data.get(key);
    if (!data) {
      data = makeSizeData(c.size, this.plan.seed, this.plan.discount);
      this.data.set(key, data);
    }
    return data;
  }

  private boundsOf(c: BenchCase, data: SizeData): Float64Array {
    const algorithm = c.strategy === JS_LOOP ? "serial" : STRATEGY_ALGORITHM[c.strategy];
    const key = `${sizeLabel(c.size)} ${algorithm} ${c.chunkSize}`;
    let bound = this.bounds.get(key);
    if (!bound) {
      bound = elementBounds(data, this.plan.discount, algorithm, c.chunkSize);
      this.bounds.set(key, bound);
    }
    return bound;
  }

  private runner(c: BenchCase, rewards: Float32Array, cols: number): () => Promise<Float32Array> | Float32Array {
    const { rows } = c.size;
    const { discount } = this.plan;
    if (c.strategy === JS_LOOP) return () => jsLoopReturns(rewards, rows, cols, discount);
    const strategy = c.strategy;
    const problem = {
      kind: "discounted" as const,
      rewards: { rows, cols, data: rewards },
      discount,
      chunkSize: c.chunkSize,
    };
    return async () => {
      // No trace: a benchmark times what a trainer needs, the returns.
      const run = await runProblem(problem, strategy, { trace: false });
      if (run.backend !== c.backend) throw new Error(`the run went to ${run.backend}, not ${c.backend}`);
      if (run.outputs.kind !== "discounted") throw new Error(`${run.outputs.kind} outputs for a discounted problem`);
      return run.outputs.returns;
    };
  }

  private async time(c: BenchCase, empty: BenchRow): Promise<BenchRow> {
    const data = this.sizeData(c);
    if (c.strategy === "per-token") {
      const skipped = await this.perTokenSkip(c, data);
      if (skipped) return { ...empty, status: "skipped", note: skipped.note, estimatedMs: skipped.perRunMs };
    }
    const { reps, skipOverMs } = this.plan;
    const m = await measureRuns(reps, {
      ...this.hooks(c, data),
      // The estimate can be low: a per-token warm-up that shows the rest would pass the limit ends the row.
      ...(c.strategy === "per-token" ? { afterWarmup: (ms: number) => warmupSkipNote(ms, reps + 1, skipOverMs) } : {}),
    });
    if (m.abandoned !== undefined) {
      return {
        ...empty,
        status: "skipped",
        note: m.abandoned,
        estimatedMs: m.warmupMs,
        warmupMs: m.warmupMs,
        ...(m.check ? { maxAbsError: m.check.maxAbsError, worstBoundFraction: m.check.worstBoundFraction } : {}),
        checkedRuns: m.checkedRuns,
        ...(m.tensorsBefore === undefined ? {} : { tensorsBefore: m.tensorsBefore }),
        ...(m.tensorsAfter === undefined ? {} : { tensorsAfter: m.tensorsAfter }),
      };
    }
    return rowOf(m, empty);
  }

  /** One row's run, its check against the reference within each element's bound, and the tensor count. */
  private hooks(c: BenchCase, data: SizeData): MeasureHooks {
    const bound = this.boundsOf(c, data);
    return {
      run: this.runner(c, data.rewards, c.size.cols),
      check: (out) => checkRun(out, data.reference, bound),
      ...(c.backend !== NO_BACKEND ? { countTensors: () => tf.memory().numTensors } : {}),
    };
  }

  /** Times per-token on two short prefixes of the rows; a row estimated over the plan's limit is skipped. */
  private async perTokenSkip(c: BenchCase, data: SizeData): Promise<{ note: string; perRunMs: number } | undefined> {
    const cols = calibrationCols(c.size.cols);
    if (cols === c.size.cols) return undefined;
    const timed = async (n: number): Promise<Calibration> => {
      const run = this.runner(c, rowPrefixes(data.rewards, c.size, n), n);
      const start = performance.now();
      await run();
      return { cols: n, ms: performance.now() - start };
    };
    await timed(cols >> 1); // compiles the per-token shaders, which do not depend on T
    const short = await timed(cols >> 1);
    const long = await timed(cols);
    const runs = this.plan.reps + EXTRA_RUNS;
    const estimate = estimatePerToken(short, long, c.size.cols, runs, this.plan.skipOverMs);
    if (!estimate.skip) return undefined;
    return { note: skipNote(estimate, this.plan.skipOverMs, c.size.rows), perRunMs: estimate.perRunMs };
  }
}

function emptyRow(c: BenchCase): BenchRow {
  return { ...c, status: "failed", timesMs: [], loops: 0, checkedRuns: 0 };
}

/** A timed row: ok or wrong by its worst run against the bound, with a note on errors and leaks. */
function rowOf(m: Measurement, empty: BenchRow): BenchRow {
  const correct = m.check.worstBoundFraction <= 1;
  const notes: string[] = [];
  if (!correct) {
    notes.push(
      `wrong: an element is ${m.check.worstBoundFraction.toPrecision(3)}× its float32 error bound ` +
        `(max abs error ${m.check.maxAbsError.toExponential(2)})`,
    );
  }
  if (m.tensorsBefore !== undefined && m.tensorsAfter !== m.tensorsBefore) {
    notes.push(`tf.memory().numTensors went from ${m.tensorsBefore} to ${m.tensorsAfter}`);
  }
  return {
    ...empty,
    status: correct ? "ok" : "wrong",
    medianMs: m.medianMs,
    timesMs: m.timesMs,
    loops: m.loops,
    warmupMs: m.warmupMs,
    maxAbsError: m.check.maxAbsError,
    worstBoundFraction: m.check.worstBoundFraction,
    checkedRuns: m.checkedRuns,
    ...(m.tensorsBefore === undefined ? {} : { tensorsBefore: m.tensorsBefore }),
    ...(m.tensorsAfter === undefined ? {} : { tensorsAfter: m.tensorsAfter }),
    ...(notes.length ? { note: notes.join("; ") } : {}),
  };
}
