import { describe, expect, it } from "vitest";
import { TENSOR_FILE_LIMITS } from "./limits";
import { TensorFileError } from "./tensorFileError";
import { checkTree } from "./treeCheck";

/** `copies` references to one shared list of `items` numbers: expands to copies·(items+1)+1 values. */
function shared(items: number, copies: number) {
  const inner = new Array(items).fill(0);
  return new Array(copies).fill(inner);
}

describe("checkTree's count of expanded values", () => {
  const limit = TENSOR_FILE_LIMITS.maxContainerItems;
  const tree = shared(4096, Math.ceil(limit / 4097) + 1);

  it("refuses a small pickle whose shared lists expand past the limit (the billion laughs)", () => {
    expect(() => checkTree(tree, "data.pkl", "laughs.pt", 200)).toThrow(TensorFileError);
    expect(() => checkTree(tree, "data.pkl", "laughs.pt", 200)).toThrow(
      `record data.pkl: the object expands to more than ${limit} values (shared references)`,
    );
  });

  it("admits as many values as the pickle has bytes: a big honest tree is not refused", () => {
    expect(checkTree(tree, "data.pkl", "rollout.pt", 2 * limit)).toBe(tree);
    // One past the pickle's length is refused again.
    const values = tree.length * 4097 + 1;
    expect(() => checkTree(tree, "data.pkl", "rollout.pt", values - 1)).toThrow(/expands to more than/);
    expect(checkTree(tree, "data.pkl", "rollout.pt", values)).toBe(tree);
  });
});
