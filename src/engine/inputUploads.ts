import * as tf from "@tensorflow/tfjs-core";
import { DeviceBufferPool } from "./deviceBufferPool";

/**
 * 128 MiB of free input buffers per device: a 64 × 32768 GAE run (two 8 MiB inputs) many times
 * over. A larger input is uploaded the same way and its buffer destroyed after the run.
 */
export const INPUT_POOL_BYTES = 128 * 2 ** 20;

/** tfjs needs STORAGE | COPY_SRC on a buffer it wraps; COPY_DST is for writeBuffer. */
const INPUT_USAGE = 0x80 | 0x4 | 0x8; // GPUBufferUsage.STORAGE | COPY_SRC | COPY_DST (not defined in Node)

const pools = new WeakMap<GPUDevice, DeviceBufferPool<GPUBuffer>>();

/**
 * The input tensors of one run. On the webgpu backend each is written with `queue.writeBuffer` into
 * a pooled device buffer (deviceBufferPool.ts says why) that the tensor wraps without a copy; on any
 * other backend it is `tf.tensor2d`. The values are the same float32 values either way. Create the
 * tensors inside the run's tf.tidy; call `release()` once the run's results have been read back.
 */
export class InputUploads {
  private readonly leased: { pool: DeviceBufferPool<GPUBuffer>; buffer: GPUBuffer }[] = [];

  tensor2d(data: Float32Array, rows: number, cols: number): tf.Tensor2D {
    const device = webgpuDevice();
    if (device === undefined) return tf.tensor2d(data, [rows, cols], "float32");
    let pool = pools.get(device);
    if (pool === undefined) {
      pool = new DeviceBufferPool(device, INPUT_USAGE, INPUT_POOL_BYTES);
      pools.set(device, pool);
    }
    const buffer = pool.acquire(data.byteLength);
    this.leased.push({ pool, buffer });
    // Ordered on the queue before any command of this run that reads the buffer: tfjs submits them later.
    device.queue.writeBuffer(buffer, 0, data);
    return tf.tensor({ buffer, zeroCopy: true }, [rows, cols], "float32") as tf.Tensor2D;
  }

  /**
   * Returns the buffers to their pool. Only after a successful read back: every command that read
   * them was submitted before it and has finished. After a failed run the buffers are only dropped
   * (garbage collected): a command recorded but not yet submitted may still name them, and a
   * destroyed buffer would fail the next submit with it.
   */
  release(succeeded: boolean): void {
    for (const { pool, buffer } of this.leased.splice(0)) if (succeeded) pool.release(buffer);
  }
}

/** The device of the active webgpu backend, duck-typed: nothing of tfjs-backend-webgpu is imported. */
function webgpuDevice(): GPUDevice | undefined {
  if (tf.getBackend() !== "webgpu") return undefined;
  return (tf.backend() as unknown as { device?: GPUDevice }).device;
}
