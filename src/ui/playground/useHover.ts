import { useCallback, useMemo, useState } from "react";
import type { OutputName } from "../../compute/playground/outputTables";
import type { PlaygroundResult } from "../../compute/playground/playgroundRun";
import type { PlaygroundRow } from "../../io/playgroundState";
import type { Hover } from "./results/ResultsPanel";
import { type ReadoutLine, readoutAt } from "./results/readout";

export interface HoverState {
  hover: Hover | null;
  setHover(next: Hover | null): void;
  /** The right column's readout of the hovered token, or null. */
  readout: ReadoutLine[] | null;
}

/** The token under the pointer, in any chart, the heatmap or the editor, and its readout. */
export function useHover(
  result: PlaygroundResult | null,
  resultRows: PlaygroundRow[],
  output: OutputName,
  resultStarts: number[],
): HoverState {
  const [hover, setHoverState] = useState<Hover | null>(null);
  // The same token reported twice is no change (views report on every data update).
  const setHover = useCallback((next: Hover | null) => {
    setHoverState((old) => (old?.row === next?.row && old?.token === next?.token ? old : next));
  }, []);
  const readout = useMemo(
    () => (result && hover ? readoutAt(result, resultRows, output, resultStarts, hover.row, hover.token) : null),
    [result, hover, resultRows, output, resultStarts],
  );
  return { hover, setHover, readout };
}
