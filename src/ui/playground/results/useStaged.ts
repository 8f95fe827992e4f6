import { startTransition, useEffect, useState } from "react";

/**
 * A value handed down in stages, one task apart: stage 0 is the value now, stage k takes it a task
 * after stage k − 1 was drawn. The results panel draws its returns chart, error chart and heatmap
 * in three commits, so that a new 16 × 8192 result never becomes one long main-thread task.
 */
export function useStaged<T>(value: T, stages: number): T[] {
  const [later, setLater] = useState<T[]>(() => new Array(Math.max(0, stages - 1)).fill(value));
  useEffect(() => {
    const k = later.findIndex((v) => v !== value);
    if (k < 0) return;
    const timer = setTimeout(() => {
      startTransition(() =>
        setLater((old) => {
          const next = old.slice();
          next[k] = value;
          return next;
        }),
      );
    }, 0);
    return () => clearTimeout(timer);
  }, [value, later]);
  return [value, ...later];
}
