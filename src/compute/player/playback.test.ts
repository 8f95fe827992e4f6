import { describe, expect, it } from "vitest";
import { discountedProblem, traceOf } from "../../testing/playerTestKit";
import { focusOwnsKey, type KeyLike, keyAction, moveCursor, nextSpeed, SPEEDS } from "./playback";

const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

describe("the keyboard map", () => {
  it("maps Space, arrows, Shift+arrows, Home, End, brackets and ?", () => {
    expect(keyAction(key(" "))).toEqual({ type: "toggle" });
    expect(keyAction(key("ArrowRight"))).toEqual({ type: "step", delta: 1 });
    expect(keyAction(key("ArrowLeft"))).toEqual({ type: "step", delta: -1 });
    expect(keyAction(key("ArrowRight", { shiftKey: true }))).toEqual({ type: "section", delta: 1 });
    expect(keyAction(key("ArrowLeft", { shiftKey: true }))).toEqual({ type: "section", delta: -1 });
    expect(keyAction(key("Home"))).toEqual({ type: "home" });
    expect(keyAction(key("End"))).toEqual({ type: "end" });
    expect(keyAction(key("]"))).toEqual({ type: "speed", delta: 1 });
    expect(keyAction(key("ArrowDown"))).toEqual({ type: "row", delta: 1 });
    expect(keyAction(key("?"))).toEqual({ type: "shortcuts" });
    expect(keyAction(key("Escape"))).toEqual({ type: "escape" });
  });

  it("leaves the browser's own shortcuts alone", () => {
    expect(keyAction(key("ArrowLeft", { altKey: true }))).toBeUndefined();
    expect(keyAction(key("r", { ctrlKey: true }))).toBeUndefined();
    expect(keyAction(key("a"))).toBeUndefined();
  });
});

describe("moving the cursor", () => {
  const trace = traceOf(discountedProblem(1, 12, 4));
  const last = trace.steps.length - 1;

  it("steps, jumps and clamps", () => {
    expect(moveCursor(trace, 0, { type: "step", delta: -1 })).toBe(0);
    expect(moveCursor(trace, 3, { type: "step", delta: 1 })).toBe(4);
    expect(moveCursor(trace, last, { type: "step", delta: 1 })).toBe(last);
    expect(moveCursor(trace, 5, { type: "home" })).toBe(0);
    expect(moveCursor(trace, 5, { type: "end" })).toBe(last);
    expect(moveCursor(trace, 5, { type: "speed", delta: 1 })).toBe(5);
  });

  it("changes speed along its stops", () => {
    expect(nextSpeed(1, 1)).toBe(2);
    expect(nextSpeed(SPEEDS[0], -1)).toBe(SPEEDS[0]);
    expect(nextSpeed(SPEEDS.at(-1) ?? 0, 1)).toBe(SPEEDS.at(-1));
    expect(nextSpeed(3, -1)).toBe(2);
  });
});

describe("keys the focused element keeps", () => {
  it("lets fields, menus, the scrubber and focused buttons handle their own keys", () => {
    expect(focusOwnsKey("INPUT", "text", "ArrowLeft")).toBe(true);
    expect(focusOwnsKey("INPUT", "range", "ArrowRight")).toBe(true);
    expect(focusOwnsKey("SELECT", "select-one", "ArrowDown")).toBe(true);
    expect(focusOwnsKey("BUTTON", "button", " ")).toBe(true);
    expect(focusOwnsKey("INPUT", "checkbox", " ")).toBe(true);
  });

  it("gives the player the keys those elements do not use", () => {
    expect(focusOwnsKey("BUTTON", "button", "ArrowRight")).toBe(false);
    expect(focusOwnsKey("INPUT", "file", "ArrowRight")).toBe(false);
    expect(focusOwnsKey("INPUT", "checkbox", "End")).toBe(false);
    expect(focusOwnsKey("BODY", "", " ")).toBe(false);
    expect(focusOwnsKey("g", "", " ")).toBe(false);
  });
});
