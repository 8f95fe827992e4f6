/**
 * A computation written once and run two ways: in slices between which the page breathes (a big
 * batch, where one task of it would freeze the page), or to the end at once (a teaching-size batch,
 * drawn in the same frame as the edit that asked for it).
 *
 * The computation is a generator: `yield` (nothing) marks a place where it may pause; `yield*
 * answer(x)` hands back x, or what the promise x resolves to.
 */
export type Sliced<T> = Generator<Promise<unknown> | undefined, T, unknown>;

/** A value that may still be coming: a worker's answer, or one computed here. */
export function* answer<T>(value: T | Promise<T>): Generator<Promise<unknown> | undefined, T, unknown> {
  if (!(value instanceof Promise)) return value;
  return (yield value) as T;
}

/** Runs to the end in this task; a promise met on the way is a caller's mistake. */
export function finishNow<T>(work: Sliced<T>): T {
  let step = work.next();
  while (!step.done) {
    if (step.value instanceof Promise) {
      step.value.catch(() => {});
      throw new Error("finishNow: the computation waits for a promise");
    }
    step = work.next();
  }
  return step.value;
}

/**
 * Runs slice by slice: `pause()` is awaited at every pause point (it may throw to stop the work,
 * e.g. when a newer request exists), and every promise yielded is awaited and its value passed back
 * (its rejection thrown into the computation).
 */
export async function finishSliced<T>(work: Sliced<T>, pause: () => Promise<void>): Promise<T> {
  let step = work.next();
  while (!step.done) {
    if (step.value instanceof Promise) {
      let value: unknown;
      try {
        value = await step.value;
      } catch (error) {
        step = work.throw(error);
        continue;
      }
      step = work.next(value);
    } else {
      try {
        await pause();
      } catch (error) {
        work.return(undefined as T);
        throw error;
      }
      step = work.next();
    }
  }
  return step.value;
}
