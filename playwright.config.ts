import { defineConfig } from "@playwright/test";

/** Debian's Chromium by default; SCANLAB_CHROMIUM points at another binary. */
const executablePath = process.env.SCANLAB_CHROMIUM ?? "/usr/bin/chromium";
/** SCANLAB_E2E_PORT lets several checkouts run their e2e suites side by side. */
const port = Number(process.env.SCANLAB_E2E_PORT ?? 4173);

export default defineConfig({
  testDir: "e2e",
  timeout: 120_000,
  retries: 0,
  workers: 1,
  reporter: process.env.CI ? "list" : "list",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    launchOptions: {
      executablePath,
      args: [
        "--enable-unsafe-webgpu",
        "--no-sandbox",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
