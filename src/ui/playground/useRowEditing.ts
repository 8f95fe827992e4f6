import { useCallback, useMemo, useRef } from "react";
import type { OutputName } from "../../compute/playground/outputTables";
import type { LiveRow, PlaygroundResult } from "../../compute/playground/playgroundRun";
import { replaceRow } from "../../compute/playground/rowEdits";
import type { PlaygroundRow } from "../../io/playgroundState";
import type { Hover } from "./results/ResultsPanel";
import type { Hint } from "./useHint";

import { type PlaygroundStore, rowsOf } from "./usePlaygroundStore";

export interface RowEditingInputs {
  store: PlaygroundStore;
  selectedRow: number;
  hint: Hint;
  setHover(next: Hover | null): void;
  onFieldError(id: string, reason: string | null): void;
  /** The result on screen, and the row recomputed alone while a stroke lasts (big batches). */
  result: PlaygroundResult | null;
  liveRow: LiveRow | null;
  output: OutputName;
}

export interface RowEditing {
  onDraftRow(row: PlaygroundRow): void;
  onCommitDraft(): void;
  onEditRow(row: PlaygroundRow): void;
  onEditorHover(token: number | null): void;
  onExactInvalid(reason: string | null): void;
  /** The output drawn in the editor while a stroke lasts, or null. */
  liveOutput: ArrayLike<number> | null;
}

/**
 * The row editor's wiring: a stroke is a draft until it ends, a typed value one edit; the hint steps
 * aside when a stroke ends and never comes back once a value is drawn or typed. Stable callbacks:
 * the panels are memoised, so a stroke or a result redraws only what changed.
 */
export function useRowEditing({
  store,
  selectedRow,
  hint,
  setHover,
  onFieldError,
  result,
  liveRow,
  output,
}: RowEditingInputs): RowEditing {
  const { setDraft, committed, edit, commitDraft, drawing, state } = store;
  // Read when a stroke moves, not a dependency: a γ edit (a new committed state) would otherwise
  // render the row editor and its lanes again.
  const committedRef = useRef(committed);
  committedRef.current = committed;
  const onDraftRow = useCallback(
    (row: PlaygroundRow) => {
      const base = committedRef.current;
      setDraft(replaceRow(base, rowsOf(base.data), selectedRow, row));
    },
    [setDraft, selectedRow],
  );
  const { dismiss, stepAside } = hint;
  const onEditRow = useCallback(
    (row: PlaygroundRow) => {
      dismiss();
      edit((s) => replaceRow(s, rowsOf(s.data), selectedRow, row));
    },
    [edit, selectedRow, dismiss],
  );
  const onEditorHover = useCallback(
    (token: number | null) => setHover(token === null ? null : { row: selectedRow, token }),
    [setHover, selectedRow],
  );
  // A stroke's hint goes when the stroke ends: gone at its start, the line it took would move the
  // lanes under the pointer (on a narrow screen the hint has a line of its own).
  const onCommitDraft = useCallback(() => {
    commitDraft();
    stepAside();
  }, [commitDraft, stepAside]);
  const onExactInvalid = useCallback((reason: string | null) => onFieldError("exact", reason), [onFieldError]);
  // While a stroke lasts, the recomputed row is drawn in the editor itself. A teaching-size batch
  // is computed whole as the pointer moves, the row read off core's result of the draft; at big
  // sizes the row alone is recomputed, and the charts and the heatmap wait for the release.
  const liveOutput = useMemo(() => {
    if (!drawing) return null;
    if (result?.input.data === state.data && selectedRow < result.rows) {
      const start = selectedRow * result.cols;
      return result.chunked[output]?.subarray(start, start + result.lengths[selectedRow]) ?? null;
    }
    const live = liveRow?.row === selectedRow ? liveRow : null;
    return live?.chunked[output]?.subarray(0, live.length) ?? null;
  }, [drawing, result, state.data, liveRow, output, selectedRow]);
  return { onDraftRow, onCommitDraft, onEditRow, onEditorHover, onExactInvalid, liveOutput };
}
