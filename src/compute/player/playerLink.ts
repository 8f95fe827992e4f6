import type { PlaygroundState, PlaygroundStateError } from "../../io/playgroundState";
import { decodeState, encodeState, linkText, stateFragment } from "../../io/shareLink";
import { type FocusRow, focusParam, focusRowSource, parseFocusParam, withFocus } from "./focusRow";
import { stateSize } from "./playerLimits";
import type { PlayerSource } from "./source";

/**
 * The address that opens the player on a playground state ("Open in player"): `?view=player#s=…`;
 * with `focus`, the state is one row of a larger batch (rowInFocus) and `&focus=3-of-16` says which.
 */
export function playerAddress(state: PlaygroundState, encoded = encodeState(state), focus?: FocusRow): string {
  return `?view=player${focus ? `&focus=${focusParam(focus)}` : ""}${stateFragment(encoded)}`;
}

export interface LinkedSource {
  /** The state in the address's `s`, when there is a valid one. */
  source?: PlayerSource;
  /** Why the `s` in the address was not used (the player then opens its first example). */
  error?: PlaygroundStateError;
}

/** What `?view=player#s=…` (or an older `&s=…`) asks the player to open; no `s` gives neither a source nor an error. */
export function linkedSource(search: string, hash = ""): LinkedSource {
  const text = linkText(search, hash);
  if (text === null) return {};
  // Bounded as the playground bounds its own links: a batch too large to replay whole still opens,
  // as the row the playground had in focus (focusRowSource).
  const decoded = decodeState(text, "Player link");
  if (!decoded.ok) return { error: decoded.error };
  const source = { kind: "state" as const, state: decoded.state, label: "From the playground" };
  const focus = parseFocusParam(new URLSearchParams(search).get("focus"));
  if (focus && stateSize(decoded.state).rows === 1) return { source: withFocus(source, focus) };
  return { source: focusRowSource(source) };
}

/**
 * The address after an edit in the player: the same view and settings (`backend`, …) with the
 * edited state in the fragment, so a reload opens what is on screen. The tour's `tour=1` is
 * dropped: a reload then opens the edited batch, not the tour's own example.
 */
export function editedAddress(search: string, state: PlaygroundState): string {
  const params = new URLSearchParams(search);
  params.delete("s");
  params.delete("tour");
  params.set("view", "player");
  return `?${params.toString()}${stateFragment(encodeState(state))}`;
}
