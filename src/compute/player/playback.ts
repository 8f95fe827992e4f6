import { nextSection, type PlayerTrace, previousSection } from "./trace";

/** Playback speeds, in steps per second. */
export const SPEEDS = [0.5, 1, 2, 4, 8, 16, 32] as const;
export const DEFAULT_SPEED = 1;

/**
 * How long a step stays on screen while playing: a short transition (CSS, 300 ms) then a hold,
 * since continuous slow motion tires the eye. Fast speeds simply cut.
 */
export function stepMillis(speed: number): number {
  return 1000 / speed;
}

export function nextSpeed(speed: number, direction: 1 | -1): number {
  const i = SPEEDS.findIndex((s) => s >= speed);
  const at = i < 0 ? SPEEDS.length - 1 : i;
  return SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, at + direction))];
}

export type PlayerAction =
  | { type: "toggle" }
  | { type: "step"; delta: 1 | -1 }
  | { type: "section"; delta: 1 | -1 }
  | { type: "home" }
  | { type: "end" }
  | { type: "speed"; delta: 1 | -1 }
  | { type: "row"; delta: 1 | -1 }
  | { type: "shortcuts" }
  | { type: "escape" };

export interface KeyLike {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** The player's keyboard map (also listed in the shortcuts panel). */
export function keyAction(e: KeyLike): PlayerAction | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey) return undefined;
  switch (e.key) {
    case " ":
      return { type: "toggle" };
    case "ArrowRight":
      return e.shiftKey ? { type: "section", delta: 1 } : { type: "step", delta: 1 };
    case "ArrowLeft":
      return e.shiftKey ? { type: "section", delta: -1 } : { type: "step", delta: -1 };
    case "Home":
      return { type: "home" };
    case "End":
      return { type: "end" };
    case "]":
      return { type: "speed", delta: 1 };
    case "[":
      return { type: "speed", delta: -1 };
    case "ArrowDown":
      return { type: "row", delta: 1 };
    case "ArrowUp":
      return { type: "row", delta: -1 };
    case "?":
      return { type: "shortcuts" };
    case "Escape":
      return { type: "escape" };
    default:
      return undefined;
  }
}

export const SHORTCUTS: [string, string][] = [
  ["Space", "play or pause"],
  ["← →", "step back or forward"],
  ["Shift + ← →", "previous or next phase (each chunk's local scan is a phase of its own)"],
  ["Home End", "first or last step"],
  ["[ ]", "slower or faster"],
  ["↑ ↓", "focus the previous or next row (matrix, serial loop and captions follow it)"],
  ["?", "show or hide these shortcuts"],
  ["Esc", "close the formula card, the shortcuts or the tour"],
];

/**
 * Whether the focused element uses this key itself, so the player must leave it alone: typing
 * and menus keep their arrows, the scrubber moves natively, a focused button or checkbox takes Space.
 */
export function focusOwnsKey(tag: string, type: string, key: string): boolean {
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag === "INPUT") {
    if (type === "range" || type === "radio")
      return key.startsWith("Arrow") || key === "Home" || key === "End" || key === " ";
    if (type === "checkbox" || type === "file" || type === "button" || type === "submit") return key === " ";
    return true;
  }
  if (tag === "BUTTON" || tag === "A" || tag === "SUMMARY") return key === " " || key === "Enter";
  return false;
}

/** Where a navigation action moves the cursor (clamped); other actions leave it. */
export function moveCursor(trace: PlayerTrace, cursor: number, action: PlayerAction): number {
  const last = trace.steps.length - 1;
  switch (action.type) {
    case "step":
      return Math.max(0, Math.min(last, cursor + action.delta));
    case "section":
      return action.delta > 0 ? nextSection(trace, cursor) : previousSection(trace, cursor);
    case "home":
      return 0;
    case "end":
      return last;
    default:
      return cursor;
  }
}
