/**
 * The CPU time of the page's longest main-thread task, read from a Chromium trace: on a shared
 * machine a task's wall time grows with the load (the thread waits for a core), its CPU time much less.
 */
import type { Page } from "@playwright/test";
import { pageMainThread, recordTrace, runTasksOf } from "../trace";

/**
 * Records Chromium's top-level tasks (CDP tracing, category `toplevel`) while `body` runs, and
 * returns the largest thread CPU time among the page's main-thread tasks over 50 ms (0: none).
 */
export async function longestTaskCpu(page: Page, body: () => Promise<void>): Promise<number> {
  const events = await recordTrace(page, ["toplevel"], body);
  const tasks = runTasksOf(events);
  const main = pageMainThread(events);
  let cpu = 0;
  for (const e of tasks) {
    if (`${e.pid}:${e.tid}` === main && (e.dur ?? 0) >= 50_000) cpu = Math.max(cpu, (e.tdur ?? 0) / 1000);
  }
  return Math.round(cpu);
}

/** Runs `body`, traced when asked: the CPU time of its longest main-thread task, else 0. */
export async function taskCpuIf(traced: boolean, page: Page, body: () => Promise<void>): Promise<number> {
  if (traced) return longestTaskCpu(page, body);
  await body();
  return 0;
}

/**
 * The CPU time of each thread of the page's renderer process between the probe's marks
 * (`bench:edit` → `bench:engine` or `bench:heatmap`, the later, probe.ts) while `body` makes one edit: the main thread
 * ("main"), each worker by its script ("worker", "coreScanWorker"…), the compositor, and the GPU
 * process's threads together (tasks only: SwiftShader's own threads are not in the trace), and
 * the main thread's until the first redraw's frame (`bench:drawn`) as "main to first redraw". Tasks
 * that straddle a mark count in proportion.
 */
export async function threadCpu(page: Page, body: () => Promise<void>): Promise<Map<string, number>> {
  const events = await recordTrace(
    page,
    ["toplevel", "blink.user_timing", "disabled-by-default-devtools.timeline"],
    body,
  );
  const mark = (name: string) => events.find((e) => e.name === name);
  const from = mark("bench:edit");
  // Until the engine's result is drawn, or the heatmap, whichever comes later (a page whose
  // aria-busy cleared before its heatmap was drawn).
  const ends = [mark("bench:engine"), mark("bench:heatmap")].filter((e) => e !== undefined);
  const to = ends.sort((a, b) => b.ts - a.ts)[0];
  // The first redraw's frame (core's result at teaching size): the main thread's CPU until then.
  const drawn = mark("bench:drawn");
  const out = new Map<string, number>();
  if (!from || !to) return out;
  const names = new Map<number, string>();
  for (const e of events) {
    if (e.pid !== from.pid) continue;
    if (e.name === "thread_name" && e.args?.name)
      names.set(e.tid, e.args.name === "CrRendererMain" ? "main" : e.args.name);
    if (e.name === "TracingSessionIdForWorker" && e.args?.data?.url && e.args.data.workerThreadId !== undefined) {
      const script = e.args.data.url.replace(/^.*\//, "").replace(/-[A-Za-z0-9_-]{8}\.js$/, "");
      names.set(e.args.data.workerThreadId, script);
    }
  }
  // The GPU process rasters and composites the page (in software here) and runs SwiftShader's
  // WebGPU: its threads are summed as one.
  const gpu = new Set(
    events.filter((e) => e.name === "process_name" && e.args?.name === "GPU Process").map((e) => e.pid),
  );
  for (const e of events) {
    if (e.ph !== "X" || e.name !== "ThreadControllerImpl::RunTask" || !e.dur) continue;
    if (e.pid !== from.pid && !gpu.has(e.pid)) continue;
    const overlap = Math.min(e.ts + e.dur, to.ts) - Math.max(e.ts, from.ts);
    if (overlap <= 0) continue;
    const name = gpu.has(e.pid) ? "GPU process" : (names.get(e.tid) ?? `thread ${e.tid}`);
    out.set(name, (out.get(name) ?? 0) + ((e.tdur ?? 0) * (overlap / e.dur)) / 1000);
    const first = drawn ? Math.min(e.ts + e.dur, drawn.ts) - Math.max(e.ts, from.ts) : 0;
    if (name === "main" && first > 0) {
      const key = "main to first redraw";
      out.set(key, (out.get(key) ?? 0) + ((e.tdur ?? 0) * (first / e.dur)) / 1000);
    }
  }
  return out;
}
