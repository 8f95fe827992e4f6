import { expect, it } from "vitest";
import { largestAllocation } from "./allocations";

it("sees every typed array the code creates, however it is made, and restores the constructors", async () => {
  const { largestBytes } = await largestAllocation(async () => {
    new Float32Array(10);
    Float64Array.from([1, 2, 3]);
    await Promise.resolve();
    return new Uint8Array(1000);
  });
  expect(largestBytes).toBe(1000);
  const after = new Float32Array(4);
  expect(after).toBeInstanceOf(Float32Array);
  expect(Object.getPrototypeOf(after)).toBe(Float32Array.prototype);
  expect((await largestAllocation(() => 1)).largestBytes).toBe(0);
});

it("keeps what the arrays are: instanceof, prototypes and subclasses hold while it watches", async () => {
  class Tagged extends Float32Array {}
  const { result } = await largestAllocation(() => {
    const plain = new Float32Array(2);
    return { plain: plain instanceof Float32Array, tagged: new Tagged(3) instanceof Tagged };
  });
  expect(result).toEqual({ plain: true, tagged: true });
});
