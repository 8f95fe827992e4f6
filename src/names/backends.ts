/**
 * The tfjs backends Scanlab can run on, best first, and what a backend choice reports. Pure
 * data, so every layer can name backends without loading tfjs (which only the engine's worker does).
 */
export const BACKENDS = ["webgpu", "webgl", "wasm", "cpu"] as const;
export type BackendName = (typeof BACKENDS)[number];

/** A backend the caller forces, or `auto`: the best one that comes up. */
export type BackendRequest = BackendName | "auto";
export const BACKEND_REQUESTS = ["auto", ...BACKENDS] as const;

/** What `navigator.gpu.requestAdapter()` said about the WebGPU adapter (`adapter.info`). */
export interface AdapterInfo {
  vendor: string;
  architecture: string;
  description?: string;
  /** True for a software adapter such as SwiftShader. */
  isFallbackAdapter: boolean;
}

/** The backend that really came up for a request, and why it is not the one asked for. */
export interface BackendReport {
  requested: BackendRequest;
  /** What `tf.getBackend()` says after initialisation. */
  backend: BackendName;
  /** True when a forced backend did not come up and a lower one runs instead. */
  fellBack: boolean;
  /** Why each backend above the running one was skipped (also set for `auto`). */
  reason?: string;
  adapter?: AdapterInfo;
}

/** The backends to try for a request, in order: the one asked for, then every one below it. */
export function backendsFrom(request: BackendRequest): BackendName[] {
  if (request === "auto") return [...BACKENDS];
  return BACKENDS.slice(BACKENDS.indexOf(request));
}

/** The next backend down the list, or undefined below cpu. */
export function backendBelow(name: BackendName): BackendName | undefined {
  return BACKENDS[BACKENDS.indexOf(name) + 1];
}
