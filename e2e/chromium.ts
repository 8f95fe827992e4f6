/** Chromium as the e2e tests and the browser benchmarks launch it: Debian's by default, SCANLAB_CHROMIUM another. */
export const CHROMIUM_PATH = process.env.SCANLAB_CHROMIUM ?? "/usr/bin/chromium";

/** WebGPU (SwiftShader without a GPU), and no network of the browser's own. */
export const CHROMIUM_ARGS = [
  "--enable-unsafe-webgpu",
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
