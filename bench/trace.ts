/**
 * A Chromium trace of the page's main thread while a bench step runs (CDP tracing): every top-level task with
 * its wall time and its thread CPU time (on a shared machine a task's wall time grows with the load, as the
 * thread waits for a core; its CPU time much less), and with `profile`, V8's sampling profiler and the
 * timeline events, so that a long task can be taken apart: its layout, style, paint and script, and the
 * functions that ran longest in it. The raw trace can be written out and opened in DevTools' Performance panel.
 */
import { writeFileSync } from "node:fs";
import type { Page } from "@playwright/test";

/** One event of a Chromium trace, with the fields the benches read. */
export interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  id?: string;
  args?: {
    name?: string;
    data?: {
      startTime?: number;
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
      timeDeltas?: number[];
      type?: string;
      url?: string;
      workerThreadId?: number;
    };
  };
}

export interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName?: string; url?: string; lineNumber?: number };
}

/** Records a Chromium trace of the given categories (CDP tracing) while `body` runs. */
export async function recordTrace(page: Page, categories: string[], body: () => Promise<void>): Promise<TraceEvent[]> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...(e.value as unknown as TraceEvent[])));
  await cdp.send("Tracing.start", {
    transferMode: "ReportEvents",
    traceConfig: { includedCategories: [...new Set([...categories, "__metadata"])] },
  });
  try {
    await body();
  } finally {
    const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
    await cdp.send("Tracing.end");
    await complete;
    await cdp.detach();
  }
  return events;
}

/** Chromium's top-level tasks in a trace (category `toplevel`). */
export function runTasksOf(events: TraceEvent[]): TraceEvent[] {
  return events.filter((e) => e.ph === "X" && e.name === "ThreadControllerImpl::RunTask" && e.dur !== undefined);
}

/** The page's main thread, as `pid:tid`: the renderer main thread that ran the most (undefined: none). */
export function pageMainThread(events: TraceEvent[]): string | undefined {
  const mains = new Set<string>();
  for (const e of events)
    if (e.name === "thread_name" && e.args?.name === "CrRendererMain") mains.add(`${e.pid}:${e.tid}`);
  const busy = new Map<string, number>();
  for (const e of runTasksOf(events)) {
    const key = `${e.pid}:${e.tid}`;
    if (mains.has(key)) busy.set(key, (busy.get(key) ?? 0) + (e.dur ?? 0));
  }
  return [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** One main-thread task: wall and CPU time in ms, and what it did (with `profile`). */
export interface TaskFigure {
  /** From the mark, in ms. */
  at: number;
  wallMs: number;
  cpuMs: number;
  /** Timeline events inside the task (Layout, UpdateLayoutTree, Paint, FunctionCall, …), ms summed by name. */
  parts: [string, number][];
  /** JavaScript functions by self time in the task (V8's samples), ms. */
  functions: [string, number][];
}

export interface Trace {
  /** The page's main-thread tasks of at least `minMs` since the mark, in order. */
  tasks: TaskFigure[];
  /** Thread CPU time of the page's workers' tasks since the mark, ms: on a loaded machine their wall time says little. */
  workerCpuMs: number;
  events: TraceEvent[];
}

const BASE = ["toplevel", "blink.user_timing"];
const PROFILE = ["devtools.timeline", "disabled-by-default-devtools.timeline", "disabled-by-default-v8.cpu_profiler"];

/**
 * Traces `body`, then returns the page main thread's tasks of at least `minMs` that started after the
 * `performance.mark(mark)` the page made (all of them when it made none).
 */
export async function traceTasks(
  page: Page,
  body: () => Promise<void>,
  options: { mark: string; minMs?: number; profile?: boolean; path?: string },
): Promise<Trace> {
  const events = await recordTrace(page, options.profile ? [...BASE, ...PROFILE] : BASE, body);
  if (options.path) writeFileSync(options.path, JSON.stringify({ traceEvents: events }));
  const runTasks = runTasksOf(events);
  const main = pageMainThread(events);
  const onMain = (e: TraceEvent) => `${e.pid}:${e.tid}` === main;
  const markTs = events.find((e) => e.name === options.mark && onMain(e))?.ts ?? 0;
  const minUs = (options.minMs ?? 50) * 1000;
  const samples = options.profile ? profileSamples(events, main) : [];
  const timeline = events.filter((e) => onMain(e) && e.ph === "X" && e.cat?.includes("devtools.timeline"));

  const tasks = runTasks
    .filter((e) => onMain(e) && e.ts >= markTs && (e.dur ?? 0) >= minUs)
    .sort((a, b) => a.ts - b.ts)
    .map((task): TaskFigure => {
      const end = task.ts + (task.dur ?? 0);
      const inside = (ts: number) => ts >= task.ts && ts < end;
      // Timeline parts: only the outermost event of each name, so a nested FunctionCall is not counted twice.
      const parts = new Map<string, number>();
      const open = new Map<string, number>();
      for (const e of timeline.filter((x) => inside(x.ts)).sort((a, b) => a.ts - b.ts)) {
        if ((open.get(e.name) ?? -1) > e.ts) continue;
        open.set(e.name, e.ts + (e.dur ?? 0));
        parts.set(e.name, (parts.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
      }
      const functions = new Map<string, number>();
      for (const s of samples) if (inside(s.ts)) functions.set(s.frame, (functions.get(s.frame) ?? 0) + s.ms);
      const top = (m: Map<string, number>, n: number): [string, number][] =>
        [...m.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, n)
          .map(([k, v]) => [k, Math.round(v * 10) / 10]);
      return {
        at: Math.round((task.ts - markTs) / 1000),
        wallMs: Math.round((task.dur ?? 0) / 1000),
        cpuMs: Math.round((task.tdur ?? 0) / 1000),
        parts: top(parts, 8),
        functions: top(functions, 12),
      };
    });
  const workers = new Set<string>();
  for (const e of events)
    if (e.name === "thread_name" && e.args?.name?.startsWith("DedicatedWorker")) workers.add(`${e.pid}:${e.tid}`);
  const workerCpuUs = runTasks
    .filter((e) => workers.has(`${e.pid}:${e.tid}`) && e.ts >= markTs)
    .reduce((sum, e) => sum + (e.tdur ?? 0), 0);
  return { tasks, workerCpuMs: Math.round(workerCpuUs / 1000), events };
}

/** V8's samples on the main thread: when, how long (to the next sample), and the function on top. */
function profileSamples(events: TraceEvent[], main: string | undefined): { ts: number; ms: number; frame: string }[] {
  return threadSamples(events, (key) => key === main, 50);
}

/**
 * V8's samples of the threads `thread` accepts (keyed `pid:tid`), in time order, each with the time to
 * its thread's next sample; a gap of `idleMs` or more between samples is idle, not a function running.
 */
export function threadSamples(
  events: TraceEvent[],
  thread: (key: string) => boolean,
  idleMs: number,
): { ts: number; ms: number; frame: string; key: string }[] {
  const profiles = new Map<string, { pid: number; tid: number; ts: number; nodes: Map<number, ProfileNode> }>();
  const out: { ts: number; ms: number; frame: string; key: string }[] = [];
  for (const e of events) {
    if (e.name === "Profile" && e.id) {
      profiles.set(`${e.pid}:${e.id}`, {
        pid: e.pid,
        tid: e.tid,
        ts: e.args?.data?.startTime ?? e.ts,
        nodes: new Map(),
      });
    }
  }
  for (const e of events) {
    if (e.name !== "ProfileChunk" || !e.id) continue;
    const profile = profiles.get(`${e.pid}:${e.id}`);
    const key = profile && `${profile.pid}:${profile.tid}`;
    if (!profile || !key || !thread(key)) continue;
    for (const node of e.args?.data?.cpuProfile?.nodes ?? []) profile.nodes.set(node.id, node);
    const ids = e.args?.data?.cpuProfile?.samples ?? [];
    const deltas = e.args?.data?.timeDeltas ?? [];
    ids.forEach((id, i) => {
      profile.ts += deltas[i] ?? 0;
      const f = profile.nodes.get(id)?.callFrame;
      const where = f?.url ? ` ${f.url.split("/").pop()}:${(f.lineNumber ?? 0) + 1}` : "";
      out.push({ ts: profile.ts, ms: 0, frame: f ? `${f.functionName || "(anonymous)"}${where}` : "?", key });
    });
  }
  out.sort((a, b) => a.ts - b.ts);
  const byThread = new Map<string, typeof out>();
  for (const s of out) {
    const xs = byThread.get(s.key);
    if (xs) xs.push(s);
    else byThread.set(s.key, [s]);
  }
  for (const xs of byThread.values())
    for (let i = 0; i < xs.length; i++) xs[i].ms = i + 1 < xs.length ? (xs[i + 1].ts - xs[i].ts) / 1000 : 0;
  return out.filter((s) => s.ms < idleMs);
}
