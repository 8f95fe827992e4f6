/**
 * Long work on the main thread, done in tasks of a few milliseconds each, one straight after the
 * other. A chain of `setTimeout(…, 0)` was the old way, and it is slow: from the fifth nested timer
 * on, the browser waits at least 4 ms before each (the HTML spec's clamp), so the sixteen slices of
 * a 16 × 8192 heatmap took 60 ms where their work took 5. Here each task works until its budget is
 * spent, then the next is posted with `scheduler.postTask` (no clamp; a frame or an input event can
 * still come between two tasks), or a MessageChannel where the browser has no scheduler.
 */

/** Work per task: short enough that a frame or a keystroke never waits long behind it. */
export const TASK_BUDGET_MS = 8;

interface PostTaskScheduler {
  postTask(callback: () => void, options?: { signal?: AbortSignal; priority?: "user-visible" }): Promise<unknown>;
}

/** Posts `callback` as a new task; returns what cancels it. */
export function postTask(callback: () => void): () => void {
  const scheduler = (globalThis as { scheduler?: Partial<PostTaskScheduler> }).scheduler;
  if (typeof scheduler?.postTask === "function") {
    const controller = new AbortController();
    scheduler.postTask(callback, { signal: controller.signal, priority: "user-visible" }).catch(() => {
      // Aborted: the work was cancelled, nothing to do.
    });
    return () => controller.abort();
  }
  if (typeof MessageChannel === "function") {
    const channel = new MessageChannel();
    let cancelled = false;
    channel.port1.onmessage = () => {
      channel.port1.close();
      if (!cancelled) callback();
    };
    channel.port2.postMessage(null);
    return () => {
      cancelled = true;
      channel.port1.close();
    };
  }
  const timer = setTimeout(callback, 0);
  return () => clearTimeout(timer);
}

/**
 * Calls `step` until it returns true, in tasks of about `budgetMs` each, the first one posted now
 * (not run in the caller's task). Returns what stops it; a step is never cut short.
 */
export function runInTasks(step: () => boolean, budgetMs = TASK_BUDGET_MS): () => void {
  let cancel = () => {};
  let stopped = false;
  const task = () => {
    const start = performance.now();
    while (!stopped) {
      if (step()) return;
      if (performance.now() - start >= budgetMs) break;
    }
    if (!stopped) cancel = postTask(task);
  };
  cancel = postTask(task);
  return () => {
    stopped = true;
    cancel();
  };
}
