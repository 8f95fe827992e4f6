import { expect, it } from "vitest";
import { parseChunkField, parseField } from "./fieldParse";

it("checks typed text with the field's name: empty, not a number, outside its range, not whole", () => {
  expect(parseField("γ (discount)", " ", { min: 0, max: 1 })).toEqual({
    ok: false,
    reason: "γ (discount) is empty; type a number from 0 to 1",
  });
  expect(parseField("γ (discount)", "abc", { min: 0, max: 1 })).toEqual({
    ok: false,
    reason: 'γ (discount): "abc" is not a number',
  });
  expect(parseField("λ (GAE)", "1.2", { min: 0, max: 1 })).toEqual({
    ok: false,
    reason: "λ (GAE): 1.2 is outside [0, 1]",
  });
  expect(parseField("Length T", "3.5", { min: 1, max: 10, whole: true })).toEqual({
    ok: false,
    reason: "Length T: 3.5 is not a whole number",
  });
  expect(parseField("γ (discount)", "0.97", { min: 0, max: 1 })).toEqual({ ok: true, value: 0.97 });
  expect(parseChunkField("0")).toEqual({
    ok: false,
    reason: "Chunk size C: chunk size 0 is below 1; a chunk holds at least one token",
  });
});
