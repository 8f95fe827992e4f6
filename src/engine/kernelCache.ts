/**
 * Host arrays of the discount kernels, remembered between runs: building them costs more than
 * uploading them (an n×n chunk-end kernel is n² float64 powers without it), and a session runs the
 * same (discount, chunk size) again and again. Only host memory is kept, never a tensor, so no
 * run leaves a tensor behind (tf.memory() counts stay equal around every run) and a backend switch
 * or a lost device cannot leave a stale buffer here. Least recently used first out, within a byte
 * budget; an array larger than the budget is built each time and never kept.
 */
export class HostKernelCache {
  private readonly entries = new Map<string, unknown>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  get<T extends Float32Array | Record<string, Float32Array>>(key: string, build: () => T): T {
    const hit = this.entries.get(key) as T | undefined;
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = build();
    const size = bytesOf(value);
    if (size > this.maxBytes) return value;
    this.entries.set(key, value);
    this.bytes += size;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= bytesOf(old as T);
    }
    return value;
  }

  /** What is kept now: entries and bytes (for tests). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}

function bytesOf(value: Float32Array | Record<string, Float32Array>): number {
  if (value instanceof Float32Array) return value.byteLength;
  return Object.values(value).reduce((sum, a) => sum + a.byteLength, 0);
}

/** 64 MiB: every kernel up to C = 2048 (16 MiB) several times over, the 1024×1024 chunk-end kernel (4 MiB). */
export const hostKernelCache = new HostKernelCache(64 * 2 ** 20);
