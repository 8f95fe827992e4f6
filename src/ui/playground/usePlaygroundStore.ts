import { useCallback, useMemo, useRef, useState } from "react";
import {
  commit,
  HISTORY_LIMIT,
  type History,
  historyOf,
  keepBehind,
  redo,
  undo,
} from "../../compute/playground/history";
import { materializeRows } from "../../io/playgroundProblem";
import type { PlaygroundData, PlaygroundRow, PlaygroundState } from "../../io/playgroundState";

/**
 * Fields that say how the page looks at the data, not what the data is: they change in place and
 * are never taken back by undo (undoing a stroke does not also flip the heatmap metric).
 */
const VIEW_FIELDS = [
  "selectedRow",
  "errorMetric",
  "errorScope",
  "output",
  "contextParallel",
  "dump",
  "showCarries",
] as const;
type ViewFields = Pick<PlaygroundState, (typeof VIEW_FIELDS)[number]>;

/** Rows of a preset are drawn from its seed once per data object, not on every render. */
const rowsCache = new WeakMap<PlaygroundData, PlaygroundRow[]>();
export function rowsOf(data: PlaygroundData): PlaygroundRow[] {
  let rows = rowsCache.get(data);
  if (!rows) {
    rows = materializeRows(data);
    rowsCache.set(data, rows);
  }
  return rows;
}

function keepView(next: PlaygroundState, view: ViewFields): PlaygroundState {
  const rows = rowsOf(next.data).length;
  return { ...next, ...view, selectedRow: Math.min(view.selectedRow, Math.max(0, rows - 1)) };
}

function viewOf(state: PlaygroundState): ViewFields {
  return {
    selectedRow: state.selectedRow,
    errorMetric: state.errorMetric,
    errorScope: state.errorScope,
    output: state.output,
    contextParallel: state.contextParallel,
    // The dump banner is dismissed in place; undo does not bring it back.
    dump: state.dump,
    showCarries: state.showCarries,
  };
}

/** Ticks of one slider this close together are one edit. */
export const MERGE_MS = 1000;

export interface PlaygroundStore {
  /** What the page shows: the draft while a stroke lasts, else the committed state. */
  state: PlaygroundState;
  /** The last committed state: what is computed in full, saved and shared. */
  committed: PlaygroundState;
  rows: PlaygroundRow[];
  drawing: boolean;
  canUndo: boolean;
  canRedo: boolean;
  /**
   * One undoable edit. Edits of the same `group` (a slider's ticks while it is dragged), each
   * within MERGE_MS of the one before, are one edit: one undo takes the whole drag back.
   */
  edit(change: (state: PlaygroundState) => PlaygroundState, group?: string): void;
  /** A view setting, changed in place. */
  setView(view: Partial<ViewFields>): void;
  /** Shows a state without committing it (a stroke in progress); null drops the draft. */
  setDraft(state: PlaygroundState | null): void;
  /** Commits the draft as one edit. */
  commitDraft(): void;
  undo(): void;
  redo(): void;
  /** Puts a state one undo away under the present, changing nothing shown (the session a link replaced). */
  keepBehind(state: PlaygroundState): void;
}

export function usePlaygroundStore(initial: () => PlaygroundState): PlaygroundStore {
  const [history, setHistory] = useState<History<PlaygroundState>>(() => historyOf(initial()));
  const [draft, setDraftState] = useState<PlaygroundState | null>(null);
  const state = draft ?? history.present;

  const lastEdit = useRef<{ group: string | undefined; at: number }>({ group: undefined, at: 0 });
  const edit = useCallback((change: (state: PlaygroundState) => PlaygroundState, group?: string) => {
    const now = performance.now();
    const merge = group !== undefined && lastEdit.current.group === group && now - lastEdit.current.at < MERGE_MS;
    lastEdit.current = { group, at: now };
    setHistory((h) => commit(h, change(h.present), HISTORY_LIMIT, merge));
  }, []);
  const setView = useCallback((view: Partial<ViewFields>) => {
    setHistory((h) => ({ ...h, present: { ...h.present, ...view } }));
    setDraftState((d) => (d ? { ...d, ...view } : d));
  }, []);
  const setDraft = useCallback((next: PlaygroundState | null) => setDraftState(next), []);
  const commitDraft = useCallback(() => {
    setDraftState((d) => {
      if (d) setHistory((h) => commit(h, d));
      return null;
    });
  }, []);
  const undoEdit = useCallback(() => {
    setHistory((h) => {
      const back = undo(h);
      return back === h ? h : { ...back, present: keepView(back.present, viewOf(h.present)) };
    });
  }, []);
  const redoEdit = useCallback(() => {
    setHistory((h) => {
      const forward = redo(h);
      return forward === h ? h : { ...forward, present: keepView(forward.present, viewOf(h.present)) };
    });
  }, []);

  const keep = useCallback((behind: PlaygroundState) => setHistory((h) => keepBehind(h, behind)), []);

  const rows = useMemo(() => rowsOf(state.data), [state.data]);
  return {
    state,
    committed: history.present,
    rows,
    drawing: draft !== null,
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    edit,
    setView,
    setDraft,
    commitDraft,
    undo: undoEdit,
    redo: redoEdit,
    keepBehind: keep,
  };
}
