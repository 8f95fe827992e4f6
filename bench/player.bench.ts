/**
 * `npm run bench:player`: how the player keeps up at T = 4096 (its built-in long example). It serves
 * the built page (run `npm run build` first), drags the scrubber from the first step to the last and
 * back, one position per frame, and reads every main-thread task from Chromium's trace: its wall
 * time and its CPU time (on a shared machine the wall time also counts waits for a core). Target:
 * no main-thread task over 100 ms. Figures are printed, never asserted.
 */
import { cpus, loadavg } from "node:os";
import { launchChromium, ORIGIN, startServer, stopServer } from "./previewServer";

interface TraceEvent {
  name: string;
  ph: string;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

const server = await startServer();
const browser = await launchChromium();
try {
  for (const backend of ["wasm", "webgpu"] as const) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${ORIGIN}/?view=player&backend=${backend}`);
    await page.getByLabel("Example").selectOption("long");
    await page.getByTestId("player-source").filter({ hasText: "4096 tokens" }).waitFor({ timeout: 120_000 });
    const cdp = await page.context().newCDPSession(page);
    const events: TraceEvent[] = [];
    cdp.on("Tracing.dataCollected", (e) => events.push(...(e.value as unknown as TraceEvent[])));
    const complete = new Promise((resolve) => cdp.on("Tracing.tracingComplete", resolve));
    await cdp.send("Tracing.start", { categories: "devtools.timeline,toplevel" });
    const positions = await page.evaluate(async () => {
      const input = document.querySelector<HTMLInputElement>('[data-testid="player-scrubber"]');
      if (!input) throw new Error("no scrubber");
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
      const forward: number[] = [];
      for (let k = 0; k <= Number(input.max); k += 6) forward.push(k);
      const drag = [...forward, Number(input.max), ...forward.reverse()];
      for (const k of drag) {
        setValue?.call(input, String(k));
        input.dispatchEvent(new Event("input", { bubbles: true }));
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      return drag.length;
    });
    await cdp.send("Tracing.end");
    await complete;
    const main = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain")?.tid;
    const tasks = events.filter((e) => e.name === "ThreadControllerImpl::RunTask" && e.ph === "X" && e.tid === main);
    const cpu = Math.max(...tasks.map((e) => (e.tdur ?? 0) / 1000));
    const wall = Math.max(...tasks.map((e) => (e.dur ?? 0) / 1000));
    const over = tasks.filter((e) => (e.tdur ?? 0) / 1000 > 100).length;
    console.log(
      `${backend}: ${positions} scrub positions, ${tasks.length} main-thread tasks; longest ${cpu.toFixed(1)} ms CPU (${wall.toFixed(0)} ms wall); ${over} over 100 ms CPU`,
    );
    await page.close();
  }
  console.log(`(${cpus().length} cores, load average ${loadavg()[0].toFixed(1)})`);
} finally {
  await browser.close();
  stopServer(server);
}
