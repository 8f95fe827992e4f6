import { loopsPerSample, median } from "../benchStats";
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
