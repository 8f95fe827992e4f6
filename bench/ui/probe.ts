/**
 * The page's own clock for bench:ui. PROBE_SCRIPT is installed in every document before the
 * page's scripts (page.addInitScript); it records, in performance.now() time:
 *
 * - when the edit happened: the `timeStamp` of the first input event of the armed kind (a
 *   capture-phase listener on window, so before React sees it): keydown (a key, Enter), input,
 *   pointerup or click. A fresh document is armed at its navigation (time 0, the time origin);
 * - the first redraw: the animation frame after `data-drawn` of `[data-testid="results"]` passes
 *   its value at arming (MutationObserver → requestAnimationFrame → performance.now()). Without
 *   `data-drawn` (a build before the page drew core's result first) the engine's result is the
 *   first redraw;
 * - the engine's result: the animation frame after `data-run` passes its value at arming while
 *   `aria-busy` is "false" (the documented wait: every part of the results has drawn it);
 * - main-thread long tasks (PerformanceObserver, `longtask`) since arming.
 *
 * It marks the edit (`performance.mark("bench:edit")`, in the capture listener) and the engine's
 * result on screen (`bench:engine`) for traces.
 *
 * It is plain JavaScript in a string so that nothing the bench's own compiler adds to functions
 * (tsx names them) reaches the page.
 */
import type { Page } from "@playwright/test";
import { STEP_PREFIX, type Step } from "../../src/ui/stepMarks";

export const PROBE_SCRIPT = `(() => {
  const probe = { trigger: null, base: { drawn: 0, run: 0 }, longTasks: [] };
  window.__uiProbe = probe;
  const results = () => document.querySelector('[data-testid="results"]');
  const counts = () => {
    const el = results();
    return { drawn: Number(el?.getAttribute("data-drawn") ?? 0), run: Number(el?.getAttribute("data-run") ?? 0) };
  };
  const reset = (eventAt) => {
    probe.eventAt = eventAt;
    probe.handlerAt = eventAt;
    probe.drawnAt = null;
    probe.drawnSource = null;
    probe.engineAt = null;
    probe.heatmapAt = null;
    probe.hasDrawnAttr = null;
    probe.pending = { drawn: false, engine: false };
    probe.longTasks.length = 0;
    probe.done = new Promise((resolve) => { probe.finish = resolve; });
  };
  probe.arm = (trigger) => {
    probe.trigger = trigger;
    probe.base = counts();
    reset(null);
  };
  // A new document: its navigation is the edit.
  probe.trigger = { type: "navigation" };
  reset(0);
  for (const type of ["keydown", "input", "pointerup", "click"]) {
    window.addEventListener(type, (event) => {
      const t = probe.trigger;
      if (!t || t.type !== type || probe.eventAt !== null) return;
      if (t.key && event.key !== t.key) return;
      probe.eventAt = event.timeStamp;
      probe.handlerAt = performance.now();
      // For traces (ui.profile.ts): the edit on the trace's clock.
      performance.mark("bench:edit");
    }, { capture: true });
  }
  const settle = () => {
    if (probe.drawnAt !== null && probe.engineAt !== null) probe.finish();
  };
  const check = (records) => {
    if (probe.eventAt === null) return;
    // The results' heatmap redrew its canvas (it reports each drawing's time): for the A/B harness.
    if (probe.heatmapAt === null && records.some((r) => r.attributeName === "data-draw-ms" && r.target.closest('[data-testid="results"]'))) {
      probe.heatmapAt = -1;
      requestAnimationFrame(() => {
        probe.heatmapAt = performance.now();
        performance.mark("bench:heatmap");
      });
    }
    const el = results();
    if (!el) return;
    const drawnAttr = el.getAttribute("data-drawn");
    probe.hasDrawnAttr = drawnAttr !== null;
    const engine = Number(el.getAttribute("data-run") ?? 0) > probe.base.run && el.getAttribute("aria-busy") === "false";
    const drawn = drawnAttr === null ? engine : Number(drawnAttr) > probe.base.drawn;
    if (drawn && !probe.pending.drawn) {
      probe.pending.drawn = true;
      const source = drawnAttr === null ? "engine" : el.getAttribute("data-source");
      requestAnimationFrame(() => {
        probe.drawnAt = performance.now();
        performance.mark("bench:drawn");
        probe.drawnSource = source;
        settle();
      });
    }
    if (engine && !probe.pending.engine) {
      probe.pending.engine = true;
      requestAnimationFrame(() => {
        probe.engineAt = performance.now();
        performance.mark("bench:engine");
        settle();
      });
    }
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    attributes: true,
    attributeFilter: ["data-drawn", "data-run", "aria-busy", "data-source", "data-draw-ms"],
  });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push(Math.round(entry.duration));
  }).observe({ type: "longtask", buffered: true });
})();`;

/** What starts an edit: the first event of this type (and key) after arming. */
export interface Trigger {
  type: "keydown" | "input" | "pointerup" | "click";
  key?: string;
}

/** One edit (or a navigation) timed in the page's clock. */
export interface Timing {
  /** Input event → the frame after the first redraw (core's result, or the engine's). */
  firstMs: number;
  /** "core" or "engine": which result the first redraw showed. */
  firstSource: string;
  /** Input event → the frame after the engine's result is drawn (aria-busy false). */
  engineMs: number;
  /** Input event's timestamp → the capture listener running (the main thread was busy). */
  inputDelayMs: number;
  /** Main-thread tasks over 50 ms from arming to the engine's result, longest first. */
  longTasks: number[];
  /** Input event → the frame after the results' heatmap first redrew its canvas (NaN if it did not). */
  heatmapMs: number;
  /** Whether the page has `data-drawn` (false: the first redraw is the engine's result). */
  hasDrawn: boolean;
  /** The engine's own time for the run, as the summary shows it (`run-time`: in the worker, validation to read-back). */
  runMs: number;
  /** Input event → each step the page marked (src/ui/stepMarks.ts), its newest mark; absent steps did not happen. */
  steps: Partial<Record<Step, number>>;
}

interface ProbeState {
  eventAt: number | null;
  handlerAt: number | null;
  drawnAt: number | null;
  drawnSource: string | null;
  engineAt: number | null;
  heatmapAt: number | null;
  hasDrawnAttr: boolean | null;
  longTasks: number[];
  done: Promise<void>;
  arm(trigger: Trigger): void;
}

type ProbeWindow = { __uiProbe: ProbeState };

/** Arms the probe for the next edit: its counts now are the baseline. */
export async function arm(page: Page, trigger: Trigger): Promise<void> {
  await page.evaluate((t) => (window as unknown as ProbeWindow).__uiProbe.arm(t), trigger);
}

/** Waits for the armed edit's first redraw and engine result, and reads its timing. */
export async function timing(page: Page, timeoutMs = 180_000): Promise<Timing> {
  const wait = page.evaluate(() => (window as unknown as ProbeWindow).__uiProbe.done);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no result within ${timeoutMs / 1000} s of the edit`)), timeoutMs);
  });
  try {
    await Promise.race([wait, late]);
  } finally {
    clearTimeout(timer);
  }
  const p = await page.evaluate(() => {
    const { eventAt, handlerAt, drawnAt, drawnSource, engineAt, heatmapAt, hasDrawnAttr, longTasks } = (
      window as unknown as ProbeWindow
    ).__uiProbe;
    return {
      eventAt,
      handlerAt,
      drawnAt,
      drawnSource,
      engineAt,
      heatmapAt,
      hasDrawnAttr,
      longTasks: longTasks.slice(),
    };
  });
  const at = p.eventAt ?? 0;
  const run = await page.getByTestId("run-time").textContent();
  // The page's own step marks (src/ui/stepMarks.ts) of this edit: the newest of each, after the event.
  const marks = await page.evaluate(
    ([prefix, from]) =>
      performance
        .getEntriesByType("mark")
        .filter((m) => m.name.startsWith(prefix) && m.startTime >= from)
        .map((m) => [m.name.slice(prefix.length), m.startTime] as const),
    [STEP_PREFIX, at] as const,
  );
  return {
    firstMs: (p.drawnAt ?? 0) - at,
    firstSource: p.drawnSource ?? "?",
    engineMs: (p.engineAt ?? 0) - at,
    heatmapMs: p.heatmapAt !== null && p.heatmapAt >= 0 ? p.heatmapAt - at : Number.NaN,
    inputDelayMs: (p.handlerAt ?? at) - at,
    longTasks: p.longTasks.sort((a, b) => b - a),
    hasDrawn: p.hasDrawnAttr === true,
    runMs: Number.parseFloat(run ?? "") * (run?.endsWith(" s") ? 1000 : 1),
    steps: Object.fromEntries(marks.map(([name, t]) => [name, t - at])),
  };
}

/**
 * Input event → the frame after the results' heatmap redrew its canvas, waiting for it up to
 * `timeoutMs` (a page whose aria-busy cleared before its heatmap was drawn; NaN if it never was).
 */
export async function heatmapTime(page: Page, timeoutMs = 10_000): Promise<number> {
  try {
    await page.waitForFunction(() => ((window as unknown as ProbeWindow).__uiProbe.heatmapAt ?? -1) >= 0, undefined, {
      timeout: timeoutMs,
      polling: 50,
    });
  } catch {
    return Number.NaN;
  }
  return page.evaluate(() => {
    const p = (window as unknown as ProbeWindow).__uiProbe;
    return (p.heatmapAt ?? 0) - (p.eventAt ?? 0);
  });
}
