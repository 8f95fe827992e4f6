import { describe, expect, it } from "vitest";
import type { PlaygroundState } from "../../../io/playgroundState";
import { BASE_SETTINGS } from "../../../io/presets";
import { fileKind, importFile } from "./importFile";

const bytes = (text: string) => new TextEncoder().encode(text);
const state: PlaygroundState = {
  ...BASE_SETTINGS,
  estimator: "reinforce_pp",
  data: { source: "inline", rows: [{ length: 2, kl: [1, 1], outcome: 1 }, { length: 3 }] },
};
const rows = state.data.source === "inline" ? state.data.rows : [];

describe("importFile", () => {
  it("tells files apart by name, then by their first bytes", () => {
    expect(fileKind("a.CSV", bytes("1,2"))).toBe("csv");
    expect(fileKind("dump", Uint8Array.of(0x93, ...bytes("NUMPY")))).toBe("npy");
    expect(fileKind("cases", bytes('  {"meta":'))).toBe("case");
    expect(fileKind("notes.md", bytes("# hi"))).toBeNull();
  });

  it("puts CSV numbers into the estimator's lane by default (KL for REINFORCE++)", () => {
    const result = importFile("kl.csv", bytes("0.5,-1.25,3\n2,4\n"), state, rows, { lane: "auto", into: "new" });
    if (!result.ok || result.value.kind !== "state") throw new Error("import failed");
    const data = result.value.state.data;
    expect(data.source === "inline" && data.rows.map((r) => r.kl)).toEqual([
      [0.5, -1.25, 3],
      [2, 4],
    ]);
    expect(result.value.state.estimator).toBe("reinforce_pp");
  });

  it("fills one lane of the current batch only when the shapes match, naming the row otherwise", () => {
    const ok = importFile("m.csv", bytes("1,0\n1,1,0\n"), state, rows, { lane: "lossMask", into: "current" });
    if (!ok.ok || ok.value.kind !== "state") throw new Error("import failed");
    const data = ok.value.state.data;
    expect(data.source === "inline" && data.rows[0]).toEqual({ length: 2, kl: [1, 1], outcome: 1, lossMask: [1, 0] });
    const bad = importFile("m.csv", bytes("1,0\n1,1\n"), state, rows, { lane: "lossMask", into: "current" });
    expect(!bad.ok && bad.error.message).toMatch(/^m\.csv: line 2: has 2 values, but batch row 1 has 3 tokens/);
  });

  it("refuses a file it does not read, with the file's name", () => {
    const result = importFile("notes.md", bytes("# hi"), state, rows, { lane: "auto", into: "new" });
    expect(!result.ok && result.error.message).toMatch(/^notes\.md: not a file the playground reads/);
  });
});
