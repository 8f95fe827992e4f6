import { describe, expect, it } from "vitest";
import { DEFAULT_PLAYGROUND_STATE, FIRST_VISIT_STATE } from "../../io/presets";
import { encodeState, STORAGE_KEY } from "../../io/shareLink";
import {
  addressWith,
  IN_INDEXED_DB,
  LONG_LINK_CHARS,
  linkSize,
  SYNC_DECODE_CHARS,
  SYNC_DECODE_NUMBERS,
  startupState,
} from "./persistence";

const storage = (value: string | null) => ({ getItem: (key: string) => (key === STORAGE_KEY ? value : null) });
const saved = { ...DEFAULT_PLAYGROUND_STATE, gamma: 0.9 };
const linked = { ...DEFAULT_PLAYGROUND_STATE, gamma: 0.5 };

describe("startup state", () => {
  it("takes the link over the saved session, and the saved session over the example", () => {
    expect(startupState(`?s=${encodeState(linked)}`, storage(encodeState(saved))).state.gamma).toBe(0.5);
    expect(startupState("", storage(encodeState(saved))).state.gamma).toBe(0.9);
    expect(startupState("", storage(null)).state).toBe(FIRST_VISIT_STATE);
  });

  it("opens the first-visit example only on an address that says nothing about the state", () => {
    expect(startupState("?debug", storage(null)).state).toBe(FIRST_VISIT_STATE);
    // Readable parameters start from the state scripts have always written them against.
    expect(startupState("?backend=wasm", storage(null)).state).toEqual({
      ...DEFAULT_PLAYGROUND_STATE,
      backend: "wasm",
    });
    expect(startupState("?gamma=0.9", storage(null)).state).toEqual({ ...DEFAULT_PLAYGROUND_STATE, gamma: 0.9 });
    expect(startupState("?library=verl", storage(null)).state.estimator).toBe(DEFAULT_PLAYGROUND_STATE.estimator);
    // A saved session that cannot be used leaves the bare address with its example.
    expect(startupState("", storage("garbage")).state).toBe(FIRST_VISIT_STATE);
  });

  it("reports storage that throws on read, and opens the example", () => {
    const denied = {
      getItem: (): string | null => {
        throw new DOMException("denied", "SecurityError");
      },
    };
    const startup = startupState("", denied);
    expect(startup.error).toBe("Saved session: could not be read (denied)");
    expect(startup.state).toBe(FIRST_VISIT_STATE);
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

  it("keeps the saved session a link replaces, one Undo away, unless the link is the session itself", () => {
    const session = encodeState(saved);
    const opened = startupState("", storage(session), `#s=${encodeState(linked)}`);
    expect(opened.state.gamma).toBe(0.5);
    expect(opened.replaced).toEqual({ state: saved });
    // A reload: the address carries the saved session.
    expect(startupState("", storage(session), `#s=${session}`).replaced).toBeNull();
    // No link, no session, or a session that cannot be read: nothing to keep.
    expect(startupState("", storage(session)).replaced).toBeNull();
    expect(startupState("", storage(null), `#s=${encodeState(linked)}`).replaced).toBeNull();
    expect(startupState("", storage("garbage"), `#s=${encodeState(linked)}`).replaced).toBeNull();
    // A damaged link replaces nothing: the session is shown.
    expect(startupState("", storage(session), "#s=garbage").replaced).toBeNull();
    // A session still to be read (IndexedDB, or too large to decode here) is kept as its text.
    expect(startupState("", storage(IN_INDEXED_DB), `#s=${encodeState(linked)}`).replaced).toEqual({ text: null });
    const big = "x".repeat(SYNC_DECODE_CHARS + 1);
    expect(startupState("", storage(big), `#s=${encodeState(linked)}`).replaced).toEqual({ text: big });
  });

  it("reads the state from the fragment first", () => {
    const fragment = `#s=${encodeState(linked)}`;
    expect(startupState("", storage(encodeState(saved)), fragment).state.gamma).toBe(0.5);
    expect(startupState("?gamma=0.25", storage(null), fragment).state.gamma).toBe(0.25);
  });

  it("decodes a short text that unpacks into many numbers in the worker, not here", () => {
    // One packed lane referred to by many rows: a few KB of text, millions of numbers.
    const row = { length: 4096, rewards: Array.from({ length: 4096 }, (_, t) => Math.sin(t)) };
    const many = { ...linked, data: { source: "inline" as const, rows: Array.from({ length: 64 }, () => row) } };
    const text = encodeState(many);
    expect(64 * 4096).toBeGreaterThan(SYNC_DECODE_NUMBERS);
    const start = startupState("", storage(null), `#s=${text}`);
    expect(start.pending?.source).toBe("Shared link");
    expect(start.state).toBe(DEFAULT_PLAYGROUND_STATE);
  });

  it("writes s into the fragment, drops readable overrides and an old ?s=, keeps other parameters", () => {
    expect(addressWith("abc", "?view=x&gamma=0.5&seed=3&s=old")).toEqual({ search: "?view=x", hash: "#s=abc" });
    expect(addressWith(null, "?s=old")).toEqual({ search: "", hash: "" });
  });

  it("tells a link long to paste from one too large to open", () => {
    expect(linkSize(LONG_LINK_CHARS)).toBe("fits");
    expect(linkSize(LONG_LINK_CHARS + 1)).toBe("long");
    expect(linkSize(2_000_000)).toBe("too large");
  });
});
