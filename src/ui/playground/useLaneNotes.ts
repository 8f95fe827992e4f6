import { useMemo } from "react";
import { nonFiniteInputNote } from "../../compute/playground/nonFiniteReport";
import { heldInputs, type Unread, unreadInputs } from "../../io/laneUse";
import type { PlaygroundState } from "../../io/playgroundState";
import { rowsOf } from "./usePlaygroundStore";

export interface LaneNotes {
  /** The rows are the user's (drawn or imported), not a preset's. */
  userRows: boolean;
  /** Lanes the batch holds that the scan does not read (or reads none of), said above the results. */
  scanNotice: string | null;
  /** The same for the library conventions' panel. */
  conventionsUnread: Unread | null;
  /** The NaN and ±Inf of the inputs, by row and token. */
  nonFiniteNote: string | null;
}

function worthSaying(unread: Unread | null, userRows: boolean): Unread | null {
  return unread && (unread.onZeros || userRows) ? unread : null;
}

/**
 * What the page says about the committed batch's lanes. The presets fill every lane so that any
 * estimator has inputs: their unread lanes are no news, while rows drawn or imported by the user are
 * (and so is computing on zeros, whatever the source).
 */
export function useLaneNotes(committed: PlaygroundState): LaneNotes {
  const rows = rowsOf(committed.data);
  const held = useMemo(() => heldInputs(rows), [rows]);
  const userRows = committed.data.source === "inline";
  const scanUnread = worthSaying(unreadInputs("scan", committed.estimator, held), userRows);
  const conventionsUnread = useMemo(
    () => worthSaying(unreadInputs("conventions", committed.estimator, held), userRows),
    [committed.estimator, held, userRows],
  );
  const nonFiniteNote = useMemo(() => nonFiniteInputNote(rows, committed.estimator), [rows, committed.estimator]);
  return { userRows, scanNotice: scanUnread?.text ?? null, conventionsUnread, nonFiniteNote };
}
