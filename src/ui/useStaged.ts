import { startTransition, useEffect, useState } from "react";

export interface StagedOptions {
  /**
   * Wait for the browser to paint stage k − 1 before handing the value to stage k (an animation
   * frame, then a task), so that the style and layout of what a stage mounted are done in that
   * frame, not forced by the next stage's first measurement (a layout effect reading a width).
   * Without frames (a hidden tab) a stage waits at most FRAME_WAIT_MS.
   */
  afterPaint?: boolean;
}

/** The longest an afterPaint stage waits for a frame. */
export const FRAME_WAIT_MS = 100;

/**
 * A value handed down in stages, one task apart: stage 0 is the value now, stage k takes it a task
 * after stage k − 1 was drawn. The playground's results panel draws its returns chart, error chart
 * and heatmap in three commits, and the run view its summary, samples table, heatmap and sample
 * chart in four, so that a new large result never becomes one long main-thread task. Every stage
 * equals the value (by identity) once the last one has caught up.
 */
export function useStaged<T>(value: T, stages: number, options: StagedOptions = {}): T[] {
  const [later, setLater] = useState<T[]>(() => new Array(Math.max(0, stages - 1)).fill(value));
  const { afterPaint = false } = options;
  useEffect(() => {
    const k = later.findIndex((v) => v !== value);
    if (k < 0) return;
    const hand = () =>
      startTransition(() =>
        setLater((old) => {
          const next = old.slice();
          next[k] = value;
          return next;
        }),
      );
    let timer = 0;
    let frame = 0;
    if (afterPaint) {
      // The frame's callback runs before its style, layout and paint; the task it posts runs after them.
      const go = () => {
        cancelAnimationFrame(frame);
        clearTimeout(timer);
        timer = window.setTimeout(hand, 0);
      };
      frame = requestAnimationFrame(go);
      timer = window.setTimeout(go, FRAME_WAIT_MS);
    } else {
      timer = window.setTimeout(hand, 0);
    }
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [value, later, afterPaint]);
  return [value, ...later];
}
