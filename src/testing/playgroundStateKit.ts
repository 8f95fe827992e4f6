import type { PlaygroundRow, PlaygroundState } from "../io/playgroundState";
import { BASE_SETTINGS } from "../io/presets";

/** Test support: a playground state over rows typed in (inline), the base settings with `settings` over them. */
export function inlineState(rows: PlaygroundRow[], settings: Partial<PlaygroundState> = {}): PlaygroundState {
  return { ...BASE_SETTINGS, ...settings, data: { source: "inline", rows } };
}
