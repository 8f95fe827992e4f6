/**
 * Device buffers for a run's inputs, kept between runs. On the webgpu backend tfjs uploads every
 * tensor through a staging buffer it maps fresh for that one upload and destroys after it; first
 * touching that fresh memory (in the page and in the GPU process) is what dominates a large run on a
 * software adapter: at 64 × 32768 (8 MiB) a raw upload, one dispatch and a read back took 77 ms that
 * way and 43 ms with `queue.writeBuffer` into a buffer that already existed. The pool keeps freed
 * buffers per exact byte size within a byte budget, like tfjs's own pool of output buffers; a buffer
 * over the budget is destroyed when its run ends.
 */

/** The parts of GPUDevice and GPUBuffer the pool uses (a fake in tests). */
export interface PoolDevice<B extends PoolBuffer> {
  createBuffer(descriptor: { size: number; usage: number }): B;
}
export interface PoolBuffer {
  readonly size: number;
  destroy(): void;
}

export class DeviceBufferPool<B extends PoolBuffer> {
  private readonly free = new Map<number, B[]>();
  private bytes = 0;

  constructor(
    private readonly device: PoolDevice<B>,
    private readonly usage: number,
    readonly maxBytes: number,
  ) {}

  /** A buffer of exactly `size` bytes: a free one when the pool has it, else a new one. */
  acquire(size: number): B {
    const kept = this.free.get(size)?.pop();
    if (kept !== undefined) {
      this.bytes -= size;
      return kept;
    }
    return this.device.createBuffer({ size, usage: this.usage });
  }

  /**
   * Hands a buffer back once no queued or pending command can read it any more (its run's results
   * were read back). Kept for the next run within the budget, destroyed otherwise.
   */
  release(buffer: B): void {
    if (this.bytes + buffer.size > this.maxBytes) {
      buffer.destroy();
      return;
    }
    const list = this.free.get(buffer.size) ?? [];
    list.push(buffer);
    this.free.set(buffer.size, list);
    this.bytes += buffer.size;
  }

  /** Free buffers and their bytes (for tests). */
  get size(): { buffers: number; bytes: number } {
    let buffers = 0;
    for (const list of this.free.values()) buffers += list.length;
    return { buffers, bytes: this.bytes };
  }
}
