import { describe, expect, it } from "vitest";
import { keptFiles, unreadableMessage } from "./runStore";
import { runFilesKey, type TabStorage, tabId } from "./runTab";

function memoryStorage(): TabStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) };
}

describe("each tab keeps its own run", () => {
  it("keeps a tab's id across its reloads, and gives another tab its own", () => {
    let n = 0;
    const newId = () => `tab-${++n}`;
    const tabA = memoryStorage();
    const tabB = memoryStorage();
    const a = tabId(tabA, newId);
    expect(tabId(tabA, newId)).toBe(a); // a reload of tab A
    const b = tabId(tabB, newId);
    expect(b).not.toBe(a);
    expect(runFilesKey(a)).not.toBe(runFilesKey(b));
  });

  it("replaces a kept id that is not one of ours, and works without storage", () => {
    const storage = memoryStorage();
    storage.items.set("scanlab.run.tab", "../../x y");
    expect(tabId(storage, () => "fresh")).toBe("fresh");
    expect(storage.items.get("scanlab.run.tab")).toBe("fresh");
    const refusing: TabStorage = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(tabId(refusing, () => "once")).toBe("once");
    expect(tabId(null, () => "none")).toBe("none");
  });
});

describe("kept files", () => {
  it("reads kept Files and the bytes an older Scanlab kept; anything else is nothing", () => {
    const blob = new Blob([new Uint8Array([1, 2])]);
    const files = keptFiles([
      { name: "0.pt", blob },
      { name: "old.pt", bytes: new Uint8Array([3]) },
    ]);
    expect(files?.map((f) => [f.name, f.blob.size])).toEqual([
      ["0.pt", 2],
      ["old.pt", 1],
    ]);
    expect(keptFiles(undefined)).toBeNull();
    expect(keptFiles([])).toBeNull();
    expect(keptFiles([{ name: "x.pt" }])).toBeNull();
    expect(keptFiles([{ name: 3, blob }])).toBeNull();
  });

  it("names a kept file that no longer reads, says why, and asks for it again", () => {
    const gone = unreadableMessage(["0.pt"], new DOMException("A requested file could not be found", "NotFoundError"));
    expect(gone).toContain("0.pt");
    expect(gone).toContain("deleted or moved");
    expect(gone).toContain("choose it again");
    const changed = unreadableMessage(
      ["0.pt", "rollout 0.pt"],
      new DOMException("could not be read", "NotReadableError"),
    );
    expect(changed).toContain("0.pt and rollout 0.pt");
    expect(changed).toContain("changed on disk");
    expect(changed).toContain("choose them again");
    expect(unreadableMessage(["a.pt"], new Error("disk gone"))).toContain("reading it failed: disk gone");
  });
});
