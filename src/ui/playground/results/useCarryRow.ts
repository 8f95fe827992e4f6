import { useLayoutEffect, useRef, useState } from "react";
import { type CarryRowResult, carryAsk, splitCarryRow } from "../../../compute/playground/carryRow";
import type { OutputName } from "../../../compute/playground/outputTables";
import type { PlaygroundClient } from "../../../compute/playground/playgroundClient";
import type { PlaygroundResult } from "../../../compute/playground/playgroundRun";
import type { PlaygroundRow } from "../../../io/playgroundState";

/** What a split was computed from: a new result, rows array, row or output asks for a new one. */
type SplitKey = readonly [PlaygroundResult, PlaygroundRow[], number, OutputName];

const sameKey = (a: SplitKey, b: SplitKey) => a.every((part, i) => Object.is(part, b[i]));

/**
 * The carries of the row in focus while they are asked for, null otherwise or while they are being
 * computed. A teaching-size result is split in the render's own layout effect (drawn in the frame
 * of the toggle); a large one by the playground worker, so that neither the toggle nor a new row in
 * focus of a 16 × 8192 batch is a long main-thread task. Nothing but that one row is ever split,
 * and the last split is kept: turning the carries off and on again shows it at once.
 */
export function useCarryRow(
  enabled: boolean,
  result: PlaygroundResult,
  rows: PlaygroundRow[],
  row: number,
  output: OutputName,
  worker: Pick<PlaygroundClient, "carryRow"> | null,
): CarryRowResult | null {
  const [split, setSplit] = useState<{ key: SplitKey; value: CarryRowResult } | null>(null);
  const key: SplitKey = [result, rows, row, output];
  const current = split && sameKey(split.key, key) ? split.value : null;
  const held = useRef(current);
  held.current = current;
  useLayoutEffect(() => {
    if (!enabled || held.current) return;
    const key: SplitKey = [result, rows, row, output];
    const ask = carryAsk(result, rows, row, output);
    const done = (value: CarryRowResult) => setSplit({ key, value });
    if ("ok" in ask || !worker) {
      done("ok" in ask ? ask : splitCarryRow(ask));
      return;
    }
    let live = true;
    worker.carryRow(ask).then(
      (value) => live && done(value),
      // Ended by a cancel: split here rather than leave the note waiting, asked anew (the lanes sent were moved).
      () => {
        const again = carryAsk(result, rows, row, output);
        if (live) done("ok" in again ? again : splitCarryRow(again));
      },
    );
    return () => {
      live = false;
    };
  }, [enabled, result, rows, row, output, worker]);
  return enabled ? current : null;
}
