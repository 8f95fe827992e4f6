import { describe, expect, it } from "vitest";
import type { PlaygroundState } from "../../io/playgroundState";
import { BASE_SETTINGS } from "../../io/presets";
import { fileKind, importFile } from "./importFile";

const bytes = (text: string) => new TextEncoder().encode(text);

/** A little-endian float32 C-order .npy file, as numpy.save writes it. */
function npyFloat32(shape: number[], values: number[]): Uint8Array {
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(", ");
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${dims}), }`;
  header += " ".repeat((64 - ((10 + header.length + 1) % 64)) % 64);
  header += "\n";
  const out = new Uint8Array(10 + header.length + values.length * 4);
  out.set([0x93, ...bytes("NUMPY"), 1, 0]);
  new DataView(out.buffer).setUint16(8, header.length, true);
  out.set(bytes(header), 10);
  new Float32Array(out.buffer, 10 + header.length).set(values);
  return out;
}
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

  it("asks where a REINFORCE++ table goes (KL or rewards) instead of guessing, and names the lane it filled", () => {
    const asked = importFile("kl.csv", bytes("0.5,-1.25,3\n2,4\n"), state, rows, { lane: "auto", into: "new" });
    if (!asked.ok || asked.value.kind !== "question") throw new Error("expected a question");
    expect(asked.value.question).toMatch(/^kl\.csv: 2 lines of 2–3 values\. REINFORCE\+\+ reads the per-token KL/);
    expect(asked.value.choices.map((c) => c.target.lane)).toEqual(["kl", "rewards"]);
    const result = importFile("kl.csv", bytes("0.5,-1.25,3\n2,4\n"), state, rows, asked.value.choices[0].target);
    if (!result.ok || result.value.kind !== "state") throw new Error("import failed");
    const data = result.value.state.data;
    expect(data.source === "inline" && data.rows.map((r) => r.kl)).toEqual([
      [0.5, -1.25, 3],
      [2, 4],
    ]);
    expect(result.value.state.estimator).toBe("reinforce_pp");
    expect(result.notes).toEqual([
      "kl.csv: read 2 lines of 2–3 values into the KL lane of a new batch of 2 rows of 2–3 tokens",
    ]);
  });

  it("names file, shape and lane of every import, for every estimator", () => {
    const npy = npyFloat32([2, 3], [1, 2, 3, 4, 5, 6]);
    for (const estimator of ["discounted", "gae"] as const) {
      const result = importFile("r.npy", npy, { ...state, estimator }, rows, { lane: "auto", into: "new" });
      expect(result.ok && result.notes).toEqual([
        "r.npy: read a float32 array [2, 3] into the rewards lane of a new batch of 2 rows × 3 tokens",
      ]);
    }
    const values = importFile("v.npy", npyFloat32([2, 2], [1, 2, 3, 4]), state, [{ length: 2 }, { length: 2 }], {
      lane: "values",
      into: "current",
    });
    expect(values.ok && values.notes).toEqual([
      "v.npy: read a float32 array [2, 2] into the values lane of the current 2 rows",
    ]);
  });

  it("reads outcome rewards, one per row, from a 1-D array (asked) or a column", () => {
    const vector = npyFloat32([2], [1, -1]);
    const asked = importFile("o.npy", vector, state, rows, { lane: "auto", into: "new" });
    if (!asked.ok || asked.value.kind !== "question") throw new Error("expected a question");
    expect(asked.value.choices.map((c) => c.target)).toEqual([
      { lane: "outcome", into: "current" },
      { lane: "kl", into: "new" },
    ]);
    const outcomes = importFile("o.npy", vector, state, rows, asked.value.choices[0].target);
    if (!outcomes.ok || outcomes.value.kind !== "state") throw new Error("import failed");
    const data = outcomes.value.state.data;
    expect(data.source === "inline" && data.rows.map((r) => [r.outcome, r.kl])).toEqual([
      [1, [1, 1]],
      [-1, undefined],
    ]);
    expect(outcomes.notes).toEqual(["o.npy: read a float32 array [2] into the outcome rewards of the current 2 rows"]);
    // A B × 1 column as long as the batch is no sequence of tokens: its outcomes, without asking.
    const column = importFile("o.csv", bytes("0.5\n2\n"), state, rows, { lane: "auto", into: "new" });
    expect(column.ok && column.value.kind === "state" && column.notes[0]).toBe(
      "o.csv: read 2 lines × 1 column into the outcome rewards of the current 2 rows",
    );
    const wrong = importFile("o.csv", bytes("1\n2\n3\n"), state, rows, { lane: "outcome", into: "current" });
    expect(!wrong.ok && wrong.error.message).toBe(
      "o.csv: holds 3 outcomes, but the batch has 2 rows (one outcome per row)",
    );
    const table = importFile("o.csv", bytes("1,2\n3,4\n"), state, rows, { lane: "outcome", into: "current" });
    expect(!table.ok && table.error.message).toMatch(
      /^o\.csv: holds a table of tokens; outcome rewards are one value per row/,
    );
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
    const dump = importFile("3.pt", Uint8Array.of(0x50, 0x4b, 3, 4), state, rows, { lane: "auto", into: "new" });
    expect(!dump.ok && dump.error.message).toMatch(
      /^3\.pt: a torch, \.npz or \.safetensors file \(a slime dump\?\): open it in Your run/,
    );
  });

  it("asks whether a loss mask's first line 0,1 is data or pandas' labels, and reads it as the user says", () => {
    const mask = bytes("0,1\n1,1,0\n");
    const target = { lane: "lossMask" as const, into: "new" as const };
    const asked = importFile("mask.csv", mask, state, rows, target);
    if (!asked.ok || asked.value.kind !== "question") throw new Error("expected a question");
    expect(asked.value.question).toMatch(
      /^mask\.csv: line 1 reads 0,1, which is both a loss-mask row and the column labels/,
    );
    expect(asked.value.choices.map((c) => c.id)).toEqual(["first-line-data", "first-line-labels"]);
    const masks = (answer: number) => {
      const result = importFile(
        "mask.csv",
        mask,
        state,
        rows,
        asked.value.kind === "question" ? asked.value.choices[answer].target : target,
      );
      if (!result.ok || result.value.kind !== "state") throw new Error("import failed");
      const data = result.value.state.data;
      return data.source === "inline" ? data.rows.map((r) => r.lossMask) : [];
    };
    expect(masks(0)).toEqual([
      [0, 1],
      [1, 1, 0],
    ]);
    expect(masks(1)).toEqual([[1, 1, 0]]);
    // Rewards are not asked: their first line of 0, 1 stays pandas' labels, with a note.
    const rewards = importFile("r.csv", mask, state, rows, { lane: "rewards", into: "new" });
    expect(rewards.ok && rewards.value.kind).toBe("state");
    // 0, 1, 2 is no mask row: labels, not asked.
    const wide = importFile("m3.csv", bytes("0,1,2\n1,1,0\n"), state, rows, target);
    expect(wide.ok && wide.value.kind).toBe("state");
  });

  it("reads Scanlab's own CSV export back as its batch and estimator, whatever lane the menu names", () => {
    const exported = [
      "row,token,chunk,loss_mask,reward,value,advantages_serial_f64,advantages_chunked,advantages_abs_err,advantages_rel_err,returns_serial_f64,returns_chunked,returns_abs_err,returns_rel_err",
      "0,0,1,1,1,0.5,0,0,0,0,0,0,0,0",
      "0,1,0,0,2,0.25,0,0,0,0,0,0,0,0",
      "1,0,1,1,3,0,0,0,0,0,0,0,0,0",
      "1,1,0,1,4,1,0,0,0,0,0,0,0,0",
    ].join("\n");
    const result = importFile("playground_gae_B2_T2.csv", bytes(exported), state, rows, {
      lane: "kl",
      into: "current",
    });
    if (!result.ok || result.value.kind !== "state")
      throw new Error(result.ok ? "expected a state" : result.error.message);
    const next = result.value.state;
    expect(next.estimator).toBe("gae");
    expect(next.chunkSize).toBe(1);
    expect(next.data.source === "inline" && next.data.rows).toEqual([
      { length: 2, lossMask: [1, 0], rewards: [1, 2], values: [0.5, 0.25] },
      { length: 2, lossMask: [1, 1], rewards: [3, 4], values: [0, 1] },
    ]);
    expect(result.notes[0]).toBe(
      "playground_gae_B2_T2.csv: read as Scanlab's CSV export: a new batch of 2 rows × 2 tokens (gae inputs and loss mask), the estimator set to gae and the chunk size to 1; its result columns are computed again here",
    );
    expect(result.notes[1]).toMatch(/an export holds a whole batch/);
  });
});
