import { describe, expect, it } from "vitest";
import type { PyDict, PyValue, Tensor } from "../tensorFiles/tensorTypes";
import { notATrainDump } from "./nothingToReplay";
import { understandDump } from "./understandDump";

/** A plain file's description names a few of its tensors, not all (issue 28, an outside probe's hostile files). */
describe("notATrainDump", () => {
  const tensor = (): Tensor => ({
    kind: "tensor",
    storedDtype: "uint8",
    dtype: "uint8",
    shape: [1],
    data: new Uint8Array(1),
    origin: "test",
  });
  const describeFile = (count: number) => {
    const root: PyDict = new Map<string, PyValue>();
    for (let i = 0; i < count; i++) root.set(`t${i}`, tensor());
    const dump = understandDump(root, "many.safetensors");
    if (!dump.ok) throw dump.error;
    return notATrainDump("many.safetensors", dump.value);
  };

  it("names every tensor of a small file", () => {
    const text = describeFile(3);
    expect(text).toContain("other tensors: t0 (uint8, shape (1)), t1 (uint8, shape (1)), t2 (uint8, shape (1)))");
  });

  it("names the first 20 of 100,000 and counts the rest (the line was 2.7 MB)", () => {
    const text = describeFile(100_000);
    expect(text).toContain("t19 (uint8, shape (1)), and 99980 more); open it in the playground");
    expect(text).not.toContain("t20 ");
    expect(text.length).toBeLessThan(1000);
  });
});
