import "@tensorflow/tfjs-backend-cpu";
import "@tensorflow/tfjs-backend-wasm";
import * as tf from "@tensorflow/tfjs-core";
import { afterAll, describe, expect, it } from "vitest";
import type { FloatArray, Zeros } from "../core";
import { zerosLike } from "../core";
import { readBack } from "./readBack";

const previous = tf.getBackend();

afterAll(async () => {
  if (previous) await tf.setBackend(previous);
});

/** A Zeros that records what it lent. */
function lender(): { zeros: Zeros; lent: FloatArray[] } {
  const lent: FloatArray[] = [];
  return {
    lent,
    zeros: (like, length) => {
      const a = zerosLike(like, length);
      lent.push(a);
      return a;
    },
  };
}

describe("readBack", () => {
  for (const backend of ["wasm", "cpu"] as const) {
    it(`on ${backend}: the same values with or without lent arrays; each tensor read once and disposed`, async () => {
      tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
      expect(await tf.setBackend(backend)).toBe(true);
      const values = [1.5, -2.25, 3, 0.1];
      const before = tf.memory().numTensors;
      const plain = await readBack({ a: tf.tensor1d(values), none: undefined });
      const { zeros, lent } = lender();
      const shared = tf.tensor1d(values);
      const into = await readBack({ a: shared, b: shared }, zeros);
      expect(tf.memory().numTensors).toBe(before);
      expect(Array.from(into.a)).toEqual(Array.from(plain.a));
      expect(into.b).toBe(into.a);
      expect(plain.none).toBeUndefined();
      // Only the wasm backend copies out of its heap: there the copy goes into the lent array.
      expect(lent).toEqual(backend === "wasm" ? [into.a] : []);
    });
  }
});
