import { useLayoutEffect, useRef, useState } from "react";
import { type CarryRowResult, carryRowSteps, finishNow } from "../../../compute/playground/carryRow";
import type { OutputName } from "../../../compute/playground/outputTables";
import type { PlaygroundResult } from "../../../compute/playground/playgroundRun";
import type { PlaygroundRow } from "../../../io/playgroundState";
import { runInTasks } from "../../budgetedTasks";

/** What a split was computed from: a new result, rows array, row or output asks for a new one. */
type SplitKey = readonly [PlaygroundResult, PlaygroundRow[], number, OutputName];

const sameKey = (a: SplitKey, b: SplitKey) => a.every((part, i) => Object.is(part, b[i]));

/**
 * The carries of the row in focus while they are asked for, null otherwise or while they are being
 * computed. A teaching-size result is split in the render's own layout effect (drawn in the frame
 * of the toggle); a large one in tasks of a few ms (budgetedTasks), so that neither the toggle nor
 * a new row in focus of a 16 × 8192 batch is one long main-thread task. Nothing but that one row
 * is ever split, and the last split is kept: turning the carries off and on again shows it at once.
 */
export function useCarryRow(
  enabled: boolean,
  result: PlaygroundResult,
  rows: PlaygroundRow[],
  row: number,
  output: OutputName,
  large: boolean,
): CarryRowResult | null {
  const [split, setSplit] = useState<{ key: SplitKey; value: CarryRowResult } | null>(null);
  const key: SplitKey = [result, rows, row, output];
  const current = split && sameKey(split.key, key) ? split.value : null;
  const held = useRef(current);
  held.current = current;
  useLayoutEffect(() => {
    if (!enabled || held.current) return;
    const key: SplitKey = [result, rows, row, output];
    const steps = carryRowSteps(result, rows, row, output);
    const done = (value: CarryRowResult) => setSplit({ key, value });
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
