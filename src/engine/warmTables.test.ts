import { describe, expect, it } from "vitest";
import { WARM_BYTES_MAX, WarmTables } from "./warmTables";

const F32 = new Float32Array(0);
const F64 = new Float64Array(0);

describe("WarmTables", () => {
  it("lends fresh zeros until a refill, then the tables made ahead, of the shapes the last run asked for", () => {
    const warm = new WarmTables();
    warm.begin();
    const first = [warm.take(F64, 100), warm.take(F32, 100)];
    expect(first[0]).toBeInstanceOf(Float64Array);
    expect(first[1]).toBeInstanceOf(Float32Array);
    first[0].fill(3); // the run writes its tables; they are the page's now
    warm.refill();
    expect(warm.readyBytes).toBe(100 * 8 + 100 * 4);
    warm.begin();
    const second = warm.take(F64, 100);
    expect(second).not.toBe(first[0]);
    expect(second.every((x) => x === 0)).toBe(true);
    // A shape not made ahead: fresh zeros, of the type asked for.
    const other = warm.take(F32, 7);
    expect(other).toEqual(new Float32Array(7));
    expect(warm.readyBytes).toBe(100 * 4);
  });

  it("makes only what the newest run asked for, and drops tables of other shapes", () => {
    const warm = new WarmTables();
    warm.begin();
    warm.take(F64, 10);
    warm.refill();
    warm.begin(); // a run that asks for another shape, whose older tables go unused
    warm.take(F32, 20);
    warm.refill();
    expect(warm.readyBytes).toBe(20 * 4);
    warm.refill(); // nothing asked since: what is ready stays
    expect(warm.readyBytes).toBe(20 * 4);
  });

  it("keeps at most its byte budget made ahead (16 MiB unless told)", () => {
    expect(WARM_BYTES_MAX).toBe(16 * 2 ** 20);
    const warm = new WarmTables(800);
    warm.begin();
    for (let i = 0; i < 3; i++) warm.take(F64, 50);
    warm.refill();
    expect(warm.readyBytes).toBe(800);
  });

  it("never lends one table twice", () => {
    const warm = new WarmTables();
    warm.begin();
    warm.take(F64, 5);
    warm.take(F64, 5);
    warm.refill();
    warm.begin();
    const a = warm.take(F64, 5);
    const b = warm.take(F64, 5);
    const c = warm.take(F64, 5); // a third: none made ahead, fresh
    expect(new Set([a, b, c]).size).toBe(3);
    expect([a, b, c].every((t) => t.every((x) => x === 0))).toBe(true);
  });
});
