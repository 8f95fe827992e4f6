import { describe, expect, it } from "vitest";
import { DeviceBufferPool, type PoolBuffer } from "./deviceBufferPool";

class FakeBuffer implements PoolBuffer {
  destroyed = false;
  constructor(
    readonly size: number,
    readonly usage: number,
  ) {}
  destroy() {
    this.destroyed = true;
  }
}

function fakeDevice() {
  const created: FakeBuffer[] = [];
  return {
    created,
    createBuffer: ({ size, usage }: { size: number; usage: number }) => {
      const buffer = new FakeBuffer(size, usage);
      created.push(buffer);
      return buffer;
    },
  };
}

describe("DeviceBufferPool", () => {
  it("creates a buffer of the exact size and usage, and hands a released one out again for that size only", () => {
    const device = fakeDevice();
    const pool = new DeviceBufferPool(device, 0x8c, 1024);
    const a = pool.acquire(256);
    expect(a).toMatchObject({ size: 256, usage: 0x8c });
    pool.release(a);
    expect(pool.size).toEqual({ buffers: 1, bytes: 256 });
    expect(pool.acquire(128)).not.toBe(a);
    expect(pool.acquire(256)).toBe(a);
    expect(pool.size).toEqual({ buffers: 0, bytes: 0 });
    expect(device.created).toHaveLength(2);
  });

  it("never hands one buffer to two runs at once", () => {
    const pool = new DeviceBufferPool(fakeDevice(), 0x8c, 1024);
    const first = pool.acquire(64);
    const second = pool.acquire(64);
    expect(second).not.toBe(first);
    pool.release(first);
    pool.release(second);
    const again = [pool.acquire(64), pool.acquire(64)];
    expect(new Set(again)).toEqual(new Set([first, second]));
  });

  it("destroys a released buffer that would take the pool over its budget, and keeps the rest", () => {
    const pool = new DeviceBufferPool(fakeDevice(), 0x8c, 1000);
    const kept = pool.acquire(600);
    const over = pool.acquire(600);
    const huge = pool.acquire(4000);
    pool.release(kept);
    pool.release(over);
    pool.release(huge);
    expect([kept.destroyed, over.destroyed, huge.destroyed]).toEqual([false, true, true]);
    expect(pool.size).toEqual({ buffers: 1, bytes: 600 });
  });
});
