import type { ConventionProblem } from "./conventions/types";
import type { ScanProblem } from "./problem";

/**
 * What can move (be transferred, not copied) between the page and a worker: the buffers of
 * typed arrays that fill their buffer whole, each once. A view into a larger buffer is left out,
 * since moving it would detach its neighbours too; structured cloning copies it instead.
 */
export function bufferCollector(): { add(a: unknown): void; buffers: Set<ArrayBuffer> } {
  const buffers = new Set<ArrayBuffer>();
  return {
    buffers,
    add(a) {
      if (!ArrayBuffer.isView(a) || !(a.buffer instanceof ArrayBuffer)) return;
      if (a.byteOffset === 0 && a.byteLength === a.buffer.byteLength) buffers.add(a.buffer);
    },
  };
}

/** Adds the input arrays of scan problems to a collector. */
export function addProblemArrays(add: (a: unknown) => void, problems: Iterable<ScanProblem>): void {
  for (const p of problems) {
    if (p.kind === "discounted") add(p.rewards.data);
    else if (p.kind === "gae") {
      add(p.rewards.data);
      add(p.values.data);
    } else {
      add(p.batch.rewards);
      p.batch.kl.forEach(add);
      p.batch.lossMasks.forEach(add);
    }
  }
}

/** Adds the input arrays of convention problems to a collector. */
export function addConventionArrays(add: (a: unknown) => void, problems: Iterable<ConventionProblem>): void {
  for (const { batch } of problems) {
    add(batch.rewards);
    batch.kl.forEach(add);
    batch.lossMasks.forEach(add);
    batch.values?.forEach(add);
  }
}

/** The input buffers of scan problems that can move to the worker. */
export function problemBuffers(problems: ScanProblem[]): ArrayBuffer[] {
  const { add, buffers } = bufferCollector();
  addProblemArrays(add, problems);
  return [...buffers];
}

/** The input buffers of convention problems that can move to the worker. */
export function conventionBuffers(problems: ConventionProblem[]): ArrayBuffer[] {
  const { add, buffers } = bufferCollector();
  addConventionArrays(add, problems);
  return [...buffers];
}
