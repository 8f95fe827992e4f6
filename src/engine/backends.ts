/**
 * Choosing the tfjs backend, in the browser only (the worker imports this file; the Node CLI
 * uses the cpu backend and never loads it). Best first: webgpu → webgl → wasm → cpu. A backend
 * that does not come up is reported, with the reason, and the next one down is tried.
 */
import "@tensorflow/tfjs-backend-cpu";
import "@tensorflow/tfjs-backend-webgl";
import "@tensorflow/tfjs-backend-webgpu";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import wasmPlainUrl from "@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url";
import wasmSimdUrl from "@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url";
import wasmThreadedSimdUrl from "@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url";
import * as tf from "@tensorflow/tfjs-core";
import {
  type AdapterInfo,
  type BackendName,
  type BackendReport,
  type BackendRequest,
  backendsFrom,
} from "../names/backends";

// The wasm binaries come from this origin (Vite copies them next to the worker): no CDN.
setWasmPaths({
  "tfjs-backend-wasm.wasm": wasmPlainUrl,
  "tfjs-backend-wasm-simd.wasm": wasmSimdUrl,
  "tfjs-backend-wasm-threaded-simd.wasm": wasmThreadedSimdUrl,
});
// The threaded build needs cross-origin isolation and a pthread worker script; never use it.
tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);

/** The adapter WebGPU would use, or why there is none. */
export async function probeWebGPU(): Promise<{ adapter?: AdapterInfo; reason?: string }> {
  const gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
  if (!gpu) return { reason: "this browser has no WebGPU (navigator.gpu is undefined)" };
  let adapter: GPUAdapter | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
  } catch (error) {
    return { reason: `navigator.gpu.requestAdapter() failed: ${messageOf(error)}` };
  }
  if (!adapter) {
    return {
      reason:
        "navigator.gpu.requestAdapter() returned no adapter (WebGPU is disabled or unsupported here; " +
        "Chromium on Linux needs --enable-unsafe-webgpu)",
    };
  }
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  const isFallbackAdapter =
    info.isFallbackAdapter ?? (adapter as GPUAdapter & { isFallbackAdapter?: boolean }).isFallbackAdapter ?? false;
  return {
    adapter: {
      vendor: info.vendor,
      architecture: info.architecture,
      ...(info.description ? { description: info.description } : {}),
      isFallbackAdapter,
    },
  };
}

/**
 * Brings up the requested backend, or the first one below it that works, and says which one
 * really runs (`tf.getBackend()`, never the request). Rejects only when not even cpu comes up.
 */
export async function initBackend(requested: BackendRequest = "auto"): Promise<BackendReport> {
  const skipped: string[] = [];
  const webgpu: { adapter?: AdapterInfo } = {};
  for (const name of backendsFrom(requested)) {
    const failure = await tryBackend(name, (info) => {
      webgpu.adapter = info;
    });
    if (failure === undefined) {
      const first = requested === "auto" ? "webgpu" : requested;
      return {
        requested,
        backend: name,
        fellBack: requested !== "auto" && name !== first,
        ...(skipped.length ? { reason: skipped.join("; ") } : {}),
        ...(name === "webgpu" && webgpu.adapter ? { adapter: webgpu.adapter } : {}),
      };
    }
    skipped.push(`${name}: ${failure}`);
  }
  throw new Error(`no tfjs backend came up (${skipped.join("; ")})`);
}

/** Switches tfjs to one backend; returns why it did not come up, or undefined when it did. */
async function tryBackend(name: BackendName, onAdapter: (info: AdapterInfo) => void): Promise<string | undefined> {
  if (name === "webgpu") {
    const probe = await probeWebGPU();
    if (!probe.adapter) return probe.reason;
    onAdapter(probe.adapter);
    // Without this, ops on small tensors silently run on the CPU inside the webgpu backend.
    tf.env().set("WEBGPU_CPU_FORWARD", false);
  }
  if (name === "webgl" && typeof OffscreenCanvas === "undefined" && !("document" in globalThis)) {
    return "no OffscreenCanvas in this worker";
  }
  let ok: boolean;
  try {
    ok = await tf.setBackend(name);
    await tf.ready();
  } catch (error) {
    return `initialisation failed: ${messageOf(error)}`;
  }
  // setBackend answers false, without throwing, when the backend's factory fails: ask tfjs.
  if (!ok || tf.getBackend() !== name) return "initialisation failed (tf.setBackend returned false)";
  return undefined;
}

/** Calls `onLost` once if the running webgpu backend's device is lost; a no-op on other backends. */
export function watchDeviceLoss(onLost: (message: string) => void): void {
  if (tf.getBackend() !== "webgpu") return;
  const device = (tf.backend() as unknown as { device?: GPUDevice }).device;
  device?.lost.then((info) => {
    onLost(`the WebGPU device was lost (${info.reason}${info.message ? `: ${info.message}` : ""})`);
  });
}

/** The running webgpu backend's device, for tests that simulate a loss; undefined elsewhere. */
export function webgpuDevice(): GPUDevice | undefined {
  if (tf.getBackend() !== "webgpu") return undefined;
  return (tf.backend() as unknown as { device?: GPUDevice }).device;
}

export function currentBackend(): string {
  return tf.getBackend();
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
