import { expect } from "vitest";

/**
 * `expect(actual).toEqual(expected)` for results that hold large typed arrays, at a fraction of its
 * cost: vitest's deep equality walks a typed array element by element through its generic
 * comparison (18 of the 21 s of windowedReplay.test.ts, which timed out at 60 s on a loaded machine).
 * Here each typed array is compared by a plain loop, element by element with Object.is (as toEqual
 * compares numbers: NaN equals NaN, 0 is not -0), and everything else by toEqual, with each array
 * replaced by its type and length. A failure names the array's path and its first differing index.
 */
export function expectSameNumbers(actual: unknown, expected: unknown, label = ""): void {
  const arraysA = new Map<string, ArrayLike<number>>();
  const arraysB = new Map<string, ArrayLike<number>>();
  const shapeA = withoutArrays(actual, "", arraysA, new Set());
  const shapeB = withoutArrays(expected, "", arraysB, new Set());
  expect(shapeA, label).toEqual(shapeB);
  for (const [path, a] of arraysA) {
    const b = arraysB.get(path);
    if (!b) throw new Error(`${label}: ${path} is a typed array in the result only`);
    const at = firstDifference(a, b);
    if (at !== -1) {
      expect.fail(
        `${label}: ${path}[${at}] is ${text(a[at])}, expected ${text(b[at])} (length ${a.length} / ${b.length})`,
      );
    }
  }
}

const text = (v: number | undefined) => (Object.is(v, -0) ? "-0" : String(v));

const isTypedArray = (v: unknown): v is Float64Array | Float32Array | Int32Array =>
  ArrayBuffer.isView(v) && !(v instanceof DataView);

function withoutArrays(
  value: unknown,
  path: string,
  arrays: Map<string, ArrayLike<number>>,
  seen: Set<object>,
): unknown {
  if (isTypedArray(value)) {
    arrays.set(path, value as ArrayLike<number>);
    return { typedArray: value.constructor.name, length: value.length };
  }
  if (value === null || typeof value !== "object") return value;
  // Maps, sets, dates, class instances: left whole to toEqual, which knows them.
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return value;
  if (seen.has(value)) throw new Error(`${path}: a cycle`);
  seen.add(value);
  const out = Array.isArray(value)
    ? value.map((v, i) => withoutArrays(v, `${path}[${i}]`, arrays, seen))
    : Object.fromEntries(
        // Enumerable own properties, getters read (as toEqual reads them).
        Object.keys(value).map((k) => [
          k,
          withoutArrays((value as Record<string, unknown>)[k], `${path}.${k}`, arrays, seen),
        ]),
      );
  seen.delete(value);
  return out;
}

/** The first index where the arrays differ by Object.is, or where one ends; -1 when they are the same. */
function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y ? x === 0 && 1 / x !== 1 / y : !(Number.isNaN(x) && Number.isNaN(y))) return i;
  }
  return a.length === b.length ? -1 : n;
}
