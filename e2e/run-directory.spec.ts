import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "./pageProblems";

/** A run directory as slime's --dump-details writes it, built from the committed fixtures (each stores its rollout_id). */
function runFolder(): string {
  const root = join(mkdtempSync(join(tmpdir(), "scanlab-run-")), "my_run");
  const fixture = (path: string) => new URL(`../cases/dumps/${path}`, import.meta.url).pathname;
  const files: Record<string, string> = {
    "train_data/11.pt": "generated/grpo_kl0.pt",
    "train_data/14.pt": "generated/rpp_norm_g1_kl002_k2.pt",
    "rollout_data/14.pt": "generated/rollout_of_rpp_norm_g1_kl002_k2.pt",
    "train_data/17.pt": "generated/ppo_g1_l1_kl001_k3.pt",
    "train_data/102.pt": "variants/whiten_per_cp_rank.pt",
    "rollout_data/200.pt": "rank-format/rpp_cp2/rollout_data/7.pt",
  };
  for (const [path, from] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    copyFileSync(fixture(from), join(root, path));
  }
  writeFileSync(join(root, "notes.txt"), "my run");
  return root;
}

/**
 * A whole run: the folder chosen on the run view's folder input, every step read in turn and shown
 * as a row with its verdict (none claimed for a step without its train dump), every file not used
 * named, the trends drawn, and a step's row opening that step in the step view.
 */
test("a run folder: a row per step with its verdict, unused files named, a row opens its step in view", async ({
  page,
}) => {
  await page.goto("/?view=run");
  await page.locator("input[type=file][webkitdirectory]").setInputFiles(runFolder());
  const steps = page.getByTestId("run-steps");
  await expect(steps.locator("tbody tr")).toHaveCount(5, { timeout: 60_000 });
  await expect(page.getByTestId("run-folder")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  await expect(
    steps.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-step"))),
  ).resolves.toEqual(["11", "14", "17", "102", "200"]);
  await expect(steps.locator('tr[data-step="11"]')).toHaveAttribute("data-passed", "true");
  await expect(steps.locator('tr[data-step="14"]')).toHaveAttribute("data-passed", "true");
  await expect(steps.locator('tr[data-step="17"]')).toHaveAttribute("data-passed", "true");
  await expect(steps.locator('tr[data-step="102"]')).toHaveAttribute("data-passed", "false");
  // A rollout dump without its train dump: listed, and no verdict claimed.
  const alone = steps.locator('tr[data-step="200"]');
  await expect(alone).toHaveAttribute("data-verdict", "not checked");
  await expect(alone).not.toHaveAttribute("data-passed", /.*/);
  await expect(page.getByTestId("run-folder-summary")).toContainText("5 steps, 3 passed, 1 failed, 1 not checked");
  await expect(page.getByTestId("run-folder-unused")).toContainText("my_run/notes.txt");
  await expect(page.getByTestId("run-step-reasons")).toContainText("step 200: no train dump of step 200");
  await expect(page.getByTestId("run-step-reasons")).toContainText("step 102: the stored advantages match");
  await expect(page.getByTestId("run-step-charts").locator("svg.token-plot")).toHaveCount(4);
  await page.screenshot({ path: "/tmp/run-dir-desktop.png", fullPage: true });

  // The failing step's row opens it in the step view: its samples, over their bound.
  await steps.getByRole("button", { name: "Open step 102" }).click();
  await expect(page.getByTestId("run-summary")).toContainText("102.pt", { timeout: 60_000 });
  await expect(page.getByTestId("run-samples").locator("tbody tr")).toHaveCount(5);
  await expect(page.getByTestId("run-samples").locator('tbody tr[data-passed="false"]').first()).toBeVisible();

  // On a phone: the table scrolls in its own box, the page keeps its width.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("run-folder").scrollIntoViewIfNeeded();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByTestId("run-folder").screenshot({ path: "/tmp/run-dir-390.png" });

  // Anywhere on a row opens its step, and the step view, below the table, charts and settings, scrolls into view.
  await steps.locator('tr[data-step="14"] td').nth(2).click();
  await expect(page.getByTestId("run-summary")).toContainText("14.pt", { timeout: 60_000 });
  await expect(page.getByTestId("run-results")).toBeInViewport();
});

/**
 * A long run: 300 steps (rollout dumps alone, cheap to read), and the steps table holds only the rows
 * in view, its full size kept for assistive technology; scrolled to its end, the last step is there.
 */
test("a run of 300 steps: the steps table renders the rows in view, not all 300", async ({ page }) => {
  const root = join(mkdtempSync(join(tmpdir(), "scanlab-long-run-")), "long_run");
  mkdirSync(join(root, "rollout_data"), { recursive: true });
  const rollout = new URL("../cases/dumps/generated/rollout_of_rpp_norm_g1_kl002_k2.pt", import.meta.url).pathname;
  for (let step = 0; step < 300; step++) copyFileSync(rollout, join(root, "rollout_data", `${step}.pt`));
  await page.goto("/?view=run");
  await page.locator("input[type=file][webkitdirectory]").setInputFiles(root);
  await expect(page.getByTestId("run-folder")).toHaveAttribute("aria-busy", "false", { timeout: 120_000 });
  await expect(page.getByTestId("run-folder-summary")).toContainText("300 steps");
  const steps = page.getByTestId("run-steps");
  await expect(steps).toHaveAttribute("aria-rowcount", "301");
  const drawn = await steps.locator("tbody tr[data-step]").count();
  expect(drawn).toBeGreaterThan(5);
  expect(drawn).toBeLessThan(60);
  await steps.evaluate((table) => {
    const box = table.parentElement as HTMLElement;
    box.scrollTop = box.scrollHeight;
  });
  await expect(steps.locator('tr[data-step="299"]')).toBeVisible();
  await expect(steps.locator('tr[data-step="299"]')).toHaveAttribute("aria-rowindex", "301");
  await expect(steps.locator('tr[data-step="0"]')).toHaveCount(0);
});

/** On a phone, a step opened from a folder with a long name: its path wraps, the page keeps its width. */
test("a step opened from a long-named run folder keeps a phone's width", async ({ page }) => {
  const root = join(mkdtempSync(join(tmpdir(), "scanlab-long-name-")), "qwen3_8b_grpo_math_lr1e6_kl0001_20261207_run3");
  mkdirSync(join(root, "train_data"), { recursive: true });
  copyFileSync(
    new URL("../cases/dumps/variants/rpp_kl_unmasked__twin.pt", import.meta.url).pathname,
    join(root, "train_data", "3.pt"),
  );
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/?view=run");
  await page.locator("input[type=file][webkitdirectory]").setInputFiles(root);
  const steps = page.getByTestId("run-steps");
  await expect(steps.locator('tr[data-step="3"]')).toHaveAttribute("data-passed", "true", { timeout: 60_000 });
  await steps.getByRole("button", { name: "Open step 3" }).click();
  await expect(page.getByTestId("run-summary")).toContainText("train_data/3.pt", { timeout: 60_000 });
  await expect(page.getByTestId("run-results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "sideways overflow (px)").toBeLessThanOrEqual(0);
});
