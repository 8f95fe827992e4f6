import { readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";

/** A real train dump written by slime's own code (cases/dumps/README.md), as a user would drop it. */
export function sharedDump(name: string): { name: string; mimeType: string; buffer: Buffer } {
  const buffer = readFileSync(new URL(`../cases/dumps/slime-shared/${name}`, import.meta.url));
  return { name, mimeType: "application/octet-stream", buffer };
}

/** A dump written by scripts/dumps/make_fixtures.py through slime's own code (cases/dumps/generated). */
export function generatedDump(name: string): { name: string; mimeType: string; buffer: Buffer } {
  const buffer = readFileSync(new URL(`../cases/dumps/generated/${name}`, import.meta.url));
  return { name, mimeType: "application/octet-stream", buffer };
}

/** A dump written by slime's own code with a known bug patched back in, or its correct twin (cases/dumps/variants). */
export function variantDump(name: string): { name: string; mimeType: string; buffer: Buffer } {
  const buffer = readFileSync(new URL(`../cases/dumps/variants/${name}`, import.meta.url));
  return { name, mimeType: "application/octet-stream", buffer };
}

/**
 * Opens the run view on slime's REINFORCE++ dump with the settings it was written with, and waits for its
 * verdict and for everything after it to be drawn (the table, the heatmap and the chart follow the summary
 * a few tasks apart; run-results is busy until the last of them is on screen).
 */
export async function openRunDump(page: Page): Promise<void> {
  await page.goto("/?view=run&advantage_estimator=reinforce_plus_plus&gamma=0.99&kl_coef=0.05");
  await page.getByTestId("run-file-input").setInputFiles(sharedDump("train_rpp_g099_kl005.pt"));
  await expect(page.getByTestId("run-summary")).toContainText("all 8 within their float32 bounds", { timeout: 60_000 });
  await expect(page.getByTestId("run-results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
}
