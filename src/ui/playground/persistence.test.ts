import { describe, expect, it } from "vitest";
import { DEFAULT_PLAYGROUND_STATE } from "../../io/presets";
import { encodeState, STORAGE_KEY } from "../../io/shareLink";
import { SYNC_DECODE_CHARS, searchWith, startupState } from "./persistence";

const storage = (value: string | null) => ({ getItem: (key: string) => (key === STORAGE_KEY ? value : null) });
const saved = { ...DEFAULT_PLAYGROUND_STATE, gamma: 0.9 };
const linked = { ...DEFAULT_PLAYGROUND_STATE, gamma: 0.5 };

describe("startup state", () => {
  it("takes the link over the saved session, and the saved session over the example", () => {
    expect(startupState(`?s=${encodeState(linked)}`, storage(encodeState(saved))).state.gamma).toBe(0.5);
    expect(startupState("", storage(encodeState(saved))).state.gamma).toBe(0.9);
    expect(startupState("", storage(null)).state).toBe(DEFAULT_PLAYGROUND_STATE);
  });

  it("says why a damaged link is refused and falls back to the saved session", () => {
    const startup = startupState("?s=garbage", storage(encodeState(saved)));
    expect(startup.state.gamma).toBe(0.9);
    expect(startup.error).toMatch(/^Shared link: /);
  });

  it("hands a large text to the worker instead of decoding it here", () => {
    const big = "x".repeat(SYNC_DECODE_CHARS + 1);
    expect(startupState(`?s=${big}`, storage(null)).pending).toEqual({ text: big, source: "Shared link" });
    expect(startupState("", storage(big)).pending).toEqual({ text: big, source: "Saved session" });
  });

  it("writes s, drops readable overrides and keeps other parameters", () => {
    expect(searchWith("abc", "?view=x&gamma=0.5&seed=3")).toBe("?view=x&s=abc");
    expect(searchWith(null, "?s=old")).toBe("");
  });
});
