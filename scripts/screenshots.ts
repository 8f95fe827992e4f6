/**
 * `npm run screenshots`: the README's pictures, taken from a built app. It builds nothing: run
 * `npm run build` first (or point SCANLAB_OUT_DIR at another build folder). It serves the build with
 * `vite preview` (SCANLAB_BENCH_PORT, default 4397, as the benchmarks do), opens the playground and the
 * player in Chromium (SCANLAB_CHROMIUM, default /usr/bin/chromium, with the flags of playwright.config.ts),
 * waits for the ready states docs/playwright.md documents, and writes
 *   docs/images/playground.png, docs/images/player.png          (1280 × 800)
 *   docs/images/playground-phone.png, docs/images/player-phone.png (390 × 844, with --phone)
 * Refresh them whenever a view changes how it looks.
 */
import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { launchChromium, ORIGIN, startServer, stopServer } from "../bench/previewServer";

const OUT = "docs/images";
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const phone = process.argv.includes("--phone");

/** The playground's ready state: a finished whole-batch run (`results`: data-run ≥ 1, aria-busy false). */
async function playgroundReady(page: Page): Promise<void> {
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(
    () => {
      const results = document.querySelector('[data-testid="results"]');
      return results?.getAttribute("aria-busy") === "false" && Number(results.getAttribute("data-run")) >= 1;
    },
    undefined,
    { timeout: 120_000 },
  );
}

/**
 * The player's ready state: `player-position` reads `1 / N` once the trace is in. The picture is taken a
 * few phases in (the local scans), where the stage shows the chunks, the discount matrix and the carries.
 */
async function playerReady(page: Page): Promise<void> {
  await page.goto(`${ORIGIN}/?view=player`);
  await page
    .getByTestId("player-position")
    .filter({ hasText: /^1 \/ \d+$/ })
    .waitFor({ timeout: 120_000 });
  for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "Next phase" }).click();
}

async function shoot(
  name: string,
  viewport: { width: number; height: number },
  ready: (page: Page) => Promise<void>,
): Promise<void> {
  const page = await browser.newPage({ viewport, reducedMotion: "reduce" });
  await ready(page);
  // Let the last frame settle (transitions are cut under reduced motion; the heatmap draws in its own task).
  await page.waitForTimeout(1000);
  const path = `${OUT}/${name}.png`;
  await page.screenshot({ path });
  console.log(`wrote ${path} (${viewport.width} × ${viewport.height})`);
  await page.close();
}

mkdirSync(OUT, { recursive: true });
const server = await startServer();
const browser = await launchChromium();
try {
  await shoot("playground", DESKTOP, playgroundReady);
  await shoot("player", DESKTOP, playerReady);
  if (phone) {
    await shoot("playground-phone", PHONE, playgroundReady);
    await shoot("player-phone", PHONE, playerReady);
  }
} finally {
  await browser.close();
  stopServer(server);
}
