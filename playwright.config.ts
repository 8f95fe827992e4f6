import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./e2e/chromium";

/** SCANLAB_E2E_PORT lets several checkouts run their e2e suites side by side. */
const port = Number(process.env.SCANLAB_E2E_PORT ?? 4173);
/** Specs that load the machine on purpose (big batches, 10,000 cases): never two of them at once. */
const STRESS = ["large-batch", "big-batch-playground", "conformance-large"].map((name) => `**/${name}.spec.ts`);

export default defineConfig({
  testDir: "e2e",
  // Each build folder gets its own results, so side-by-side runs do not clean each other's.
  outputDir: process.env.SCANLAB_OUT_DIR ? `test-results/${process.env.SCANLAB_OUT_DIR}` : "test-results",
  timeout: 120_000,
  retries: 0,
  // One spec file at a time by default. SCANLAB_E2E_WORKERS=2 runs two at once: much of a test is waiting
  // (a page loading, a worker starting, SwiftShader compiling), but on a loaded machine the webgpu runs
  // then near their timeouts, so two is the default only once it has passed twice on the CI machine.
  workers: Number(process.env.SCANLAB_E2E_WORKERS ?? 1),
  reporter: "list",
  // The stress specs first and never two at once: with two workers each runs beside one other spec,
  // not after them all.
  projects: [
    { name: "stress", testMatch: STRESS, workers: 1 },
    { name: "e2e", testIgnore: STRESS },
  ],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
