import { readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";

type DumpFile = { name: string; mimeType: string; buffer: Buffer };

/** A committed dump of cases/dumps/`folder`, as a user would drop it. */
function dumpFile(folder: string, name: string): DumpFile {
  const buffer = readFileSync(new URL(`../cases/dumps/${folder}/${name}`, import.meta.url));
  return { name, mimeType: "application/octet-stream", buffer };
}

/** A real train dump written by slime's own code (cases/dumps/README.md). */
export const sharedDump = (name: string) => dumpFile("slime-shared", name);

/** A dump written by scripts/dumps/make_fixtures.py through slime's own code (cases/dumps/generated). */
export const generatedDump = (name: string) => dumpFile("generated", name);

/** A dump written by slime's own code with a known bug patched back in, or its correct twin (cases/dumps/variants). */
export const variantDump = (name: string) => dumpFile("variants", name);

/** Opens the run view, its settings in the address (`query`, "&gamma=0.99…"), and drops `file` on it. */
export async function openRunFile(page: Page, file: DumpFile, query = ""): Promise<void> {
  await page.goto(`/?view=run${query}`);
  await page.getByTestId("run-file-input").setInputFiles(file);
}

/** slime's ppo dump (written with --normalize-advantages), opened with its settings but `normalize` as asked. */
export function openPpoDump(page: Page, normalize: boolean): Promise<void> {
  return openRunFile(
    page,
    sharedDump("train_ppo_g099_l095_kl002.pt"),
    `&advantage_estimator=ppo&gamma=0.99&lambd=0.95&kl_coef=0.02&normalize_advantages=${normalize ? 1 : 0}`,
  );
}

/**
 * Opens the run view on slime's REINFORCE++ dump with the settings it was written with, and waits for its
 * verdict and for everything after it to be drawn (the table, the heatmap and the chart follow the summary
 * a few tasks apart; run-results is busy until the last of them is on screen).
 */
export async function openRunDump(page: Page): Promise<void> {
  await openRunFile(
    page,
    sharedDump("train_rpp_g099_kl005.pt"),
    "&advantage_estimator=reinforce_plus_plus&gamma=0.99&kl_coef=0.05",
  );
  await expect(page.getByTestId("run-summary")).toContainText("all 8 within their float32 bounds", { timeout: 60_000 });
  await expect(page.getByTestId("run-results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
}
