import { useEffect, useState } from "react";
import { ReturnsChart } from "./ReturnsChart";

/** Longest wait for an idle moment before the warm-up chart mounts anyway. */
const MAX_WAIT_MS = 2000;
/** Tokens of the warm-up chart: enough for every part of a plot (lines, a masked span, the axes' ticks). */
const TOKENS = 64;

/** Once a page has drawn one chart, recharts' code is compiled for every later one. */
let warmed = false;

const reference = Float64Array.from({ length: TOKENS }, (_, t) => Math.sin(t / 8));
const chunked = Float32Array.from(reference);
const lossMask = Uint8Array.from({ length: TOKENS }, (_, t) => (t % 16 < 12 ? 1 : 0));
const NO_BOUNDARIES: number[] = [];

const HIDDEN = {
  position: "fixed",
  left: 0,
  top: 0,
  width: "100%",
  height: 0,
  overflow: "hidden",
  visibility: "hidden",
  pointerEvents: "none",
} as const;

/**
 * A hidden chart of a few points, mounted once the page is idle and dropped once drawn, so that the
 * page's first real chart does not pay for compiling recharts. V8 compiles a function when it first
 * runs, and a recharts chart runs hundreds of them: the run view's first sample chart (8192 tokens)
 * took 60–75 ms of CPU in the task that drew its plot, a later one about 30 ms. Mounted while the
 * user picks a file (or while the worker reads a reopened dump), the cost lands where nothing waits.
 */
export function ChartWarmUp() {
  const [phase, setPhase] = useState<"waiting" | "drawing" | "done">(warmed ? "done" : "waiting");
  useEffect(() => {
    if (phase !== "waiting") return;
    const start = () => setPhase("drawing");
    if (typeof window.requestIdleCallback !== "function") {
      const timer = setTimeout(start, 50);
      return () => clearTimeout(timer);
    }
    const id = window.requestIdleCallback(start, { timeout: MAX_WAIT_MS });
    return () => window.cancelIdleCallback(id);
  }, [phase]);
  if (phase !== "drawing") return null;
  return (
    <div aria-hidden="true" inert style={HIDDEN}>
      <ReturnsChart
        title="warm-up"
        reference={reference}
        chunked={chunked}
        chunkedLabel="warm-up"
        chunkBoundaries={NO_BOUNDARIES}
        lossMask={lossMask}
        onDrawn={() => {
          warmed = true;
          setPhase("done");
        }}
      />
    </div>
  );
}
