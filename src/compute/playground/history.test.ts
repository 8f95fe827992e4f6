import { describe, expect, it } from "vitest";
import { commit, historyOf, keepBehind, redo, undo } from "./history";

describe("edit history", () => {
  it("undoes and redoes whole edits in order", () => {
    let h = historyOf("a");
    h = commit(h, "b");
    h = commit(h, "c");
    h = undo(h);
    expect(h.present).toBe("b");
    h = undo(h);
    expect(h.present).toBe("a");
    expect(undo(h)).toBe(h);
    h = redo(h);
    h = redo(h);
    expect(h.present).toBe("c");
    expect(redo(h)).toBe(h);
  });

  it("drops the redo branch on a new edit and ignores an edit that changes nothing", () => {
    let h = commit(commit(historyOf(1), 2), 3);
    h = undo(h);
    h = commit(h, 4);
    expect(h.future).toEqual([]);
    expect(h.past).toEqual([1, 2]);
    expect(commit(h, 4)).toBe(h);
  });

  it("forgets the oldest edits past the limit", () => {
    let h = historyOf(0);
    for (let i = 1; i <= 10; i++) h = commit(h, i, 3);
    expect(h.past).toEqual([7, 8, 9]);
  });

  it("merges the ticks of one drag into the edit that began it", () => {
    let h = historyOf(0);
    h = commit(h, 1);
    h = commit(h, 2, 10, true);
    h = commit(h, 3, 10, true);
    expect(h).toEqual({ past: [0], present: 3, future: [] });
    expect(undo(h).present).toBe(0);
    // Nothing to merge into: the first edit is kept apart from the start.
    expect(commit(historyOf(0), 1, 10, true).past).toEqual([0]);
  });

  it("keeps a replaced state one undo away, under the present", () => {
    const kept = keepBehind(commit(historyOf("a"), "link"), "session");
    expect(kept).toEqual({ past: ["a", "session"], present: "link", future: [] });
    expect(undo(kept).present).toBe("session");
    expect(redo(undo(kept)).present).toBe("link");
    expect(keepBehind(historyOf("link"), "session", 1)).toEqual({ past: ["session"], present: "link", future: [] });
  });
});
