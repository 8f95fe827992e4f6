/** The built page served by `vite preview` for the browser benchmarks, and Chromium as the e2e tests launch it. */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { type Browser, chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";

export const OUT_DIR = process.env.SCANLAB_OUT_DIR ?? "dist";
export const PORT = Number(process.env.SCANLAB_BENCH_PORT ?? 4397);
export const ORIGIN = `http://127.0.0.1:${PORT}`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

async function isUp(): Promise<boolean> {
  try {
    return (await fetch(ORIGIN)).ok;
  } catch {
    return false;
  }
}

/** Serves `outDir` (default SCANLAB_OUT_DIR, else dist) on PORT. */
export async function startServer(outDir = OUT_DIR): Promise<ChildProcess> {
  if (!existsSync(`${outDir}/index.html`)) {
    throw new Error(`no build in ${outDir}/: run \`npm run build\` first (or set SCANLAB_OUT_DIR)`);
  }
  // Another server on the port would be measured instead of this build.
  if (await isUp()) throw new Error(`port ${PORT} is taken: set SCANLAB_BENCH_PORT to a free one`);
  const server = spawn("npx", ["vite", "preview", "--host", "127.0.0.1", "--port", String(PORT), "--strictPort"], {
    env: { ...process.env, SCANLAB_OUT_DIR: outDir },
    stdio: "ignore",
    detached: true,
  });
  let exited = false;
  server.on("exit", () => {
    exited = true;
  });
  for (let i = 0; i < 150 && !exited; i++) {
    if (await isUp()) return server;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`vite preview did not come up on ${ORIGIN}${exited ? " (it exited)" : ""}`);
}

/** Ends the server and everything it started (npx, vite). */
export function stopServer(server: ChildProcess): void {
  try {
    if (server.pid !== undefined) process.kill(-server.pid);
  } catch {
    // the preview server is already gone
  }
}
