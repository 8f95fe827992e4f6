import { useLayoutEffect, useState } from "react";
import type { PlaygroundRow } from "../../../io/playgroundState";
import { runInTasks } from "../../budgetedTasks";
import type { OutputName } from "../compute/outputTables";
import type { PlaygroundResult } from "../compute/playgroundRun";
import { finishNow } from "../compute/slices";
import { type CarryRowResult, carryRowSteps } from "./carryRow";

/**
 * The carries of the row in focus while they are asked for, null otherwise or while they are being
 * computed. A teaching-size result is split in the render's own layout effect (drawn in the frame
 * of the toggle); a large one in tasks of a few ms (budgetedTasks), so that neither the toggle nor
 * a new row in focus of a 16 × 8192 batch is one long main-thread task. Nothing but that one row
 * is ever split.
 */
export function useCarryRow(
  enabled: boolean,
  result: PlaygroundResult,
  rows: PlaygroundRow[],
  row: number,
  output: OutputName,
  large: boolean,
): CarryRowResult | null {
  const [split, setSplit] = useState<{ key: unknown[]; value: CarryRowResult } | null>(null);
  const key = [enabled, result, rows, row, output];
  const current = split?.key.every((k, i) => Object.is(k, key[i])) ? split.value : null;
  useLayoutEffect(() => {
    if (!enabled) return;
    const steps = carryRowSteps(result, rows, row, output);
    const done = (value: CarryRowResult) => setSplit({ key: [enabled, result, rows, row, output], value });
    if (!large) {
      done(finishNow(steps));
      return;
    }
    return runInTasks(() => {
      const step = steps.next();
      if (step.done) done(step.value);
      return step.done === true;
    });
  }, [enabled, result, rows, row, output, large]);
  return enabled ? current : null;
}
