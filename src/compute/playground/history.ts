/**
 * Undo and redo over whole edits. A stroke of the pointer is one edit: while it lasts the view
 * shows a draft, and only its end is committed here, so one Ctrl+Z takes back the whole stroke.
 */
export interface History<S> {
  past: S[];
  present: S;
  future: S[];
}

/** How many edits undo can take back; older ones are forgotten. */
export const HISTORY_LIMIT = 200;

export function historyOf<S>(present: S): History<S> {
  return { past: [], present, future: [] };
}

/**
 * Makes `next` the present; the old present can be undone, and the redo branch is dropped. With
 * `merge`, `next` replaces the present as part of the same edit (the ticks of one slider drag).
 */
export function commit<S>(history: History<S>, next: S, limit = HISTORY_LIMIT, merge = false): History<S> {
  if (Object.is(next, history.present)) return history;
  if (merge && history.past.length > 0) return { past: history.past, present: next, future: [] };
  const past = [...history.past, history.present];
  if (past.length > limit) past.splice(0, past.length - limit);
  return { past, present: next, future: [] };
}

export function undo<S>(history: History<S>): History<S> {
  const previous = history.past.at(-1);
  if (history.past.length === 0) return history;
  return { past: history.past.slice(0, -1), present: previous as S, future: [history.present, ...history.future] };
}

export function redo<S>(history: History<S>): History<S> {
  if (history.future.length === 0) return history;
  const [next, ...future] = history.future;
  return { past: [...history.past, history.present], present: next, future };
}

/**
 * Puts `behind` under the present, one undo away (the saved session a link replaced): the present
 * and the redo branch stay as they are.
 */
export function keepBehind<S>(history: History<S>, behind: S, limit = HISTORY_LIMIT): History<S> {
  const past = [...history.past, behind];
  if (past.length > limit) past.splice(0, past.length - limit);
  return { ...history, past };
}
