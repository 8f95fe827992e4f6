import { describe, expect, it } from "vitest";
import { WARM_BYTES_MAX, WARM_BYTES_MIN, WarmTables } from "./warmTables";

const F32 = new Float32Array(0);
const F64 = new Float64Array(0);
/** The fewest float64 elements a table made ahead has (and twice that many float32 ones). */
const N = WARM_BYTES_MIN / 8;

describe("WarmTables", () => {
  it("lends fresh zeros until a refill, then the tables made ahead, of the shapes the last run asked for", () => {
    const warm = new WarmTables();
    warm.begin();
    const first = [warm.take(F64, N), warm.take(F32, 2 * N)];
    expect(first[0]).toBeInstanceOf(Float64Array);
    expect(first[1]).toBeInstanceOf(Float32Array);
    first[0].fill(3); // the run writes its tables; they are the page's now
    warm.refill();
    expect(warm.readyBytes).toBe(2 * WARM_BYTES_MIN);
    warm.begin();
    const second = warm.take(F64, N);
    expect(second).not.toBe(first[0]);
    expect(second.every((x) => x === 0)).toBe(true);
    // A shape not made ahead: fresh zeros, of the type asked for.
    const other = warm.take(F32, 3 * N);
    expect(other).toEqual(new Float32Array(3 * N));
    expect(warm.readyBytes).toBe(WARM_BYTES_MIN);
  });

  it("makes only what the newest run asked for, and drops tables of other shapes", () => {
    const warm = new WarmTables();
    warm.begin();
    warm.take(F64, N);
    warm.refill();
    warm.begin(); // a run that asks for another shape, whose older tables go unused
    warm.take(F32, 4 * N);
    warm.refill();
    expect(warm.readyBytes).toBe(2 * WARM_BYTES_MIN);
    warm.refill(); // nothing asked since: what is ready stays
    expect(warm.readyBytes).toBe(2 * WARM_BYTES_MIN);
  });

  it("keeps at most its byte budget made ahead (16 MiB unless told), and nothing below WARM_BYTES_MIN", () => {
    expect(WARM_BYTES_MAX).toBe(16 * 2 ** 20);
    const warm = new WarmTables(2 * WARM_BYTES_MIN);
    warm.begin();
    for (let i = 0; i < 3; i++) warm.take(F64, N);
    warm.take(F64, N - 1); // a few pages: fresh, and not made ahead
    warm.refill();
    expect(warm.readyBytes).toBe(2 * WARM_BYTES_MIN);
    const small = new WarmTables();
    small.begin();
    for (let i = 0; i < 1000; i++) small.take(F32, 10);
    small.refill();
    expect(small.readyBytes).toBe(0);
  });

  it("never lends one table twice", () => {
    const warm = new WarmTables();
    warm.begin();
    warm.take(F64, N);
    warm.take(F64, N);
    warm.refill();
    warm.begin();
    const a = warm.take(F64, N);
    const b = warm.take(F64, N);
    const c = warm.take(F64, N); // a third: none made ahead, fresh
    expect(new Set([a, b, c]).size).toBe(3);
    expect([a, b, c].every((t) => t.every((x) => x === 0))).toBe(true);
  });
});
