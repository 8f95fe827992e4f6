import { loopsPerSample, median } from "./benchStats";
import { type RunCheck, worseOf } from "./runCheck";

/** What timing one row found. */
export interface Measurement {
  warmupMs: number;
  timesMs: number[];
  medianMs: number;
  loops: number;
  check: RunCheck;
  checkedRuns: number;
  tensorsBefore?: number;
  tensorsAfter?: number;
  /** Why the row stopped after its warm-up (`afterWarmup` said so); no time was taken then. */
  abandoned?: string;
}

export interface MeasureHooks {
  /** One run, returning its output (everything the run does, reading the result back included). */
  run(): Promise<ArrayLike<number>> | ArrayLike<number>;
  /** The output against the reference and each element's bound. */
  check(out: ArrayLike<number>): RunCheck;
  /** tf.memory().numTensors, for the engine's rows. */
  countTensors?(): number;
  now?(): number;
  /** Asked between samples: true stops early (the run was cancelled). */
  cancelled?(): boolean;
  /** Told the warm-up's time: a reason stops the row there (its runs would take too long). */
  afterWarmup?(warmupMs: number): string | undefined;
}

/**
 * Times a row: one warm-up run (shader compilation, kernel building) kept out of the median, a
 * probe run that sizes a sample (`loops` back-to-back runs when one is shorter than the timer's
 * resolution), then `reps` samples. Every output, warm-up and probe included, is checked after its
 * sample's clock stopped, so checking never adds to a time.
 */
export async function measureRuns(reps: number, hooks: MeasureHooks): Promise<Measurement> {
  const now = hooks.now ?? (() => performance.now());
  const tensorsBefore = hooks.countTensors?.();
  let check: RunCheck | undefined;
  let checkedRuns = 0;
  const verify = (out: ArrayLike<number>) => {
    check = worseOf(check, hooks.check(out));
    checkedRuns++;
  };
  let start = now();
  verify(await hooks.run());
  const warmupMs = now() - start;
  const abandoned = hooks.afterWarmup?.(warmupMs);
  if (abandoned !== undefined) {
    const tensorsAfter = hooks.countTensors?.();
    return {
      warmupMs,
      timesMs: [],
      medianMs: Number.NaN,
      loops: 0,
      check: check as RunCheck,
      checkedRuns,
      abandoned,
      ...(tensorsBefore === undefined ? {} : { tensorsBefore }),
      ...(tensorsAfter === undefined ? {} : { tensorsAfter }),
    };
  }
  start = now();
  const probe = await hooks.run();
  const probeMs = now() - start;
  verify(probe);
  const loops = loopsPerSample(probeMs);
  const timesMs: number[] = [];
  for (let rep = 0; rep < reps && !hooks.cancelled?.(); rep++) {
    const outs: ArrayLike<number>[] = [];
    start = now();
    for (let k = 0; k < loops; k++) outs.push(await hooks.run());
    timesMs.push((now() - start) / loops);
    for (const out of outs) verify(out);
  }
  const tensorsAfter = hooks.countTensors?.();
  return {
    warmupMs,
    timesMs,
    medianMs: median(timesMs),
    loops,
    check: check as RunCheck,
    checkedRuns,
    ...(tensorsBefore === undefined ? {} : { tensorsBefore }),
    ...(tensorsAfter === undefined ? {} : { tensorsAfter }),
  };
}

/**
 * Times several rows side by side (sideBySideGroups says which): each row's warm-up and probe as
 * measureRuns does them, then `reps` rounds in which every row takes one sample in turn, the first
 * row of each round moving along by one, so load that comes and goes falls on all of them alike.
 * Each row keeps its own loops, checks and median, and its own tensor count: the live tensors
 * before its warm-up plus what its own runs left (tf.memory() counts every row's tensors, so one
 * row's leak would otherwise show in all of them). Rows here have no `afterWarmup`.
 */
export async function measureSideBySide(reps: number, rows: readonly MeasureHooks[]): Promise<Measurement[]> {
  const states = rows.map((hooks) => ({
    hooks,
    run: countingLeaks(hooks),
    now: hooks.now ?? (() => performance.now()),
    tensorsBefore: hooks.countTensors?.(),
    check: undefined as RunCheck | undefined,
    checkedRuns: 0,
    warmupMs: 0,
    loops: 1,
    timesMs: [] as number[],
  }));
  type State = (typeof states)[number];
  const verify = (s: State, out: ArrayLike<number>) => {
    s.check = worseOf(s.check, s.hooks.check(out));
    s.checkedRuns++;
  };
  for (const s of states) {
    let start = s.now();
    verify(s, await s.run.run());
    s.warmupMs = s.now() - start;
    start = s.now();
    const probe = await s.run.run();
    const probeMs = s.now() - start;
    verify(s, probe);
    s.loops = loopsPerSample(probeMs);
  }
  const cancelled = () => states.some((s) => s.hooks.cancelled?.());
  for (let rep = 0; rep < reps && !cancelled(); rep++) {
    for (let k = 0; k < states.length; k++) {
      const s = states[(rep + k) % states.length];
      const outs: ArrayLike<number>[] = [];
      const start = s.now();
      for (let i = 0; i < s.loops; i++) outs.push(await s.run.run());
      s.timesMs.push((s.now() - start) / s.loops);
      for (const out of outs) verify(s, out);
    }
  }
  return states.map((s) => {
    const tensorsAfter = s.tensorsBefore === undefined ? undefined : s.tensorsBefore + s.run.left();
    return {
      warmupMs: s.warmupMs,
      timesMs: s.timesMs,
      medianMs: median(s.timesMs),
      loops: s.loops,
      check: s.check as RunCheck,
      checkedRuns: s.checkedRuns,
      ...(s.tensorsBefore === undefined ? {} : { tensorsBefore: s.tensorsBefore }),
      ...(tensorsAfter === undefined ? {} : { tensorsAfter }),
    };
  });
}

/** A row's run that also adds up the tensors each call leaves alive (when the row counts tensors). */
function countingLeaks(hooks: MeasureHooks): { run: () => Promise<ArrayLike<number>>; left: () => number } {
  let left = 0;
  return {
    run: async () => {
      const before = hooks.countTensors?.();
      const out = await hooks.run();
      if (before !== undefined) left += (hooks.countTensors?.() ?? before) - before;
      return out;
    },
    left: () => left,
  };
}
