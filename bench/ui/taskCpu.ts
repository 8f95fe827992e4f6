/**
 * The CPU time of the page's longest main-thread task, read from a Chromium trace: on a shared
 * machine a task's wall time grows with the load (the thread waits for a core), its CPU time much less.
 */
import type { Page } from "@playwright/test";

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * Records Chromium's top-level tasks (CDP tracing, category `toplevel`) while `body` runs, and
 * returns the largest thread CPU time among the page's main-thread tasks over 50 ms (0: none).
 */
export async function longestTaskCpu(page: Page, body: () => Promise<void>): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...(e.value as unknown as TraceEvent[])));
  await cdp.send("Tracing.start", {
    transferMode: "ReportEvents",
    traceConfig: { includedCategories: ["toplevel", "__metadata"] },
  });
  try {
    await body();
  } finally {
    const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
    await cdp.send("Tracing.end");
    await complete;
    await cdp.detach();
  }
  const mains = new Set<string>();
  for (const e of events)
    if (e.name === "thread_name" && e.args?.name === "CrRendererMain") mains.add(`${e.pid}:${e.tid}`);
  // The page's main thread: the renderer main thread that ran the most.
  const busy = new Map<string, number>();
  const tasks = events.filter((e) => e.ph === "X" && e.name === "ThreadControllerImpl::RunTask" && e.dur !== undefined);
  for (const e of tasks) {
    const key = `${e.pid}:${e.tid}`;
    if (mains.has(key)) busy.set(key, (busy.get(key) ?? 0) + (e.dur ?? 0));
  }
  const main = [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
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
