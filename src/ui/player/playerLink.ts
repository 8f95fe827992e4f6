import type { PlaygroundState, PlaygroundStateError } from "../../io/playgroundState";
import { decodeState, encodeState, linkText, stateFragment } from "../../io/shareLink";
import { MAX_PLAYER_CELLS } from "./playerLimits";
import type { PlayerSource } from "./source";

/** The address that opens the player on a playground state ("Open in player"): `?view=player#s=…`. */
export function playerAddress(state: PlaygroundState, encoded = encodeState(state)): string {
  return `?view=player${stateFragment(encoded)}`;
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
  // Bounded by what the player can show, so a link that unpacks into millions of numbers is refused
  // before it makes them (it decodes on the main thread, at startup).
  const decoded = decodeState(text, "Player link", 4 * MAX_PLAYER_CELLS);
  if (!decoded.ok) return { error: decoded.error };
  return { source: { kind: "state", state: decoded.state, label: "From the playground" } };
}
