import type { PlaygroundState, PlaygroundStateError } from "../../io/playgroundState";
import { decodeState, encodeState, SHARE_PARAM } from "../../io/shareLink";
import type { PlayerSource } from "./source";

/** The address that opens the player on a playground state ("Open in player"). */
export function playerSearch(state: PlaygroundState): string {
  const params = new URLSearchParams({ view: "player" });
  params.set(SHARE_PARAM, encodeState(state));
  return `?${params.toString()}`;
}

export interface LinkedSource {
  /** The state in the address's `s`, when there is a valid one. */
  source?: PlayerSource;
  /** Why the `s` in the address was not used (the player then opens its first example). */
  error?: PlaygroundStateError;
}

/** What `?view=player&s=…` asks the player to open; no `s` gives neither a source nor an error. */
export function linkedSource(search: string): LinkedSource {
  const text = new URLSearchParams(search).get(SHARE_PARAM);
  if (text === null) return {};
  const decoded = decodeState(text, "Player link");
  if (!decoded.ok) return { error: decoded.error };
  return { source: { kind: "state", state: decoded.state, label: "From the playground" } };
}
