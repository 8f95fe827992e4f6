import { expect, type Page, test } from "@playwright/test";
import { decodeState, linkText } from "../src/io/shareLink";
import { collectProblems } from "./pageProblems";

/** What the panel shows comes from its worker: on a loaded 2-core machine an answer can take seconds. */
const worker = { timeout: 60_000 };

/** Opens the playground on a seeded batch and unfolds the context-parallel panel under the results. */
async function openPanel(page: Page, query: string) {
  const problems = collectProblems(page);
  await page.goto(`/?${query}`);
  const panel = page.getByTestId("cp-panel");
  await panel.locator("summary").click();
  await expect(page.getByTestId("cp-strip")).toBeVisible(worker);
  return { panel, problems };
}

test("changing cp_size redraws the strip: 2n chunks, each labelled with its rank", async ({ page }) => {
  const { problems } = await openPanel(
    page,
    "preset=multi-turn&rows=2&tokens=300&estimator=reinforce_pp&seed=7&precision=float64",
  );
  const strip = page.getByTestId("cp-strip");
  await expect(strip).toHaveAttribute("data-cp-size", "4");
  await expect(strip.getByTestId("cp-chunk")).toHaveCount(8);
  for (const n of [2, 8, 1]) {
    await page.getByTestId("cp-size-select").selectOption(String(n));
    await expect(strip).toHaveAttribute("data-cp-size", String(n), worker);
    await expect(strip.getByTestId("cp-chunk")).toHaveCount(2 * n);
    // Rank r holds chunk r and chunk 2n − 1 − r: the last chunk is rank 0's, and says so.
    await expect(strip.getByTestId("cp-chunk").last()).toHaveAttribute("data-rank", "0");
    await expect(strip.getByTestId("cp-chunk").last().locator("text").first()).toHaveText("r0");
  }
  await expect(page.getByTestId("cp-sample")).toContainText("T = 64 + 300 = 364 tokens, 2 chunks of c = 182");
  expect(problems).toEqual([]);
});

test("the steps walk through gather, scan and slice-back, by button and by keyboard, and the result equals cp_size 1", async ({
  page,
}) => {
  const { problems } = await openPanel(
    page,
    "preset=multi-turn&rows=2&tokens=300&estimator=reinforce_pp&seed=7&precision=float64",
  );
  const step = page.getByTestId("cp-step");
  await expect(step).toHaveAttribute("data-step", "split");
  await page.getByTestId("cp-step-next").click();
  await expect(step).toHaveAttribute("data-step", "shift");
  await expect(page.getByTestId("cp-logit-shift")).toBeVisible();
  // Arrow keys on the focused step buttons.
  await page.getByTestId("cp-step-next").focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(step).toHaveAttribute("data-step", "gather");
  await expect(page.getByTestId("cp-lanes")).toHaveAttribute("data-step", "gather");
  await expect(page.getByTestId("cp-lane")).toHaveCount(4);
  await expect(page.getByTestId("cp-summary-lane")).toBeVisible();
  await page.keyboard.press("End");
  await expect(step).toHaveAttribute("data-step", "slice");
  await expect(page.getByTestId("cp-step-next")).toBeDisabled();
  await page.keyboard.press("Home");
  await expect(step).toHaveAttribute("data-step", "split");

  const equality = page.getByTestId("cp-equality");
  await expect(equality).toHaveAttribute("data-state", "equal");
  await expect(equality).toContainText("bit for bit: 300 of 300 float32 values identical");
  await page.getByTestId("cp-size-select").selectOption("7");
  await expect(equality).toContainText("Reassembled from 7 ranks", worker);
  await expect(equality).toHaveAttribute("data-state", "equal");
  await expect(page.getByTestId("cp-ppo-ok")).toBeVisible();
  await expect(page.getByTestId("cp-whitening-row")).toHaveCount(7);
  expect(problems).toEqual([]);
});

test("a short sample at cp_size 8 shows the PPO placement warning, and a link reopens the panel as it was", async ({
  page,
}) => {
  const { problems } = await openPanel(page, "preset=terminal&rows=1&tokens=20&estimator=gae&seed=3&precision=float64");
  await page.getByTestId("cp-size-select").selectOption("8");
  await page.getByTestId("cp-prompt-input").fill("2");
  const warning = page.getByTestId("cp-ppo-warning");
  await expect(warning).toContainText("rank 0's last local element is response token 0, not the last one (19)", worker);
  await expect(page.getByTestId("cp-ppo-difference")).toContainText("differ from cp_size 1's");
  // Rank 0 with no response token at all: slime's IndexError.
  await page.getByTestId("cp-prompt-input").fill("10");
  await expect(warning).toContainText("IndexError: index -1 is out of bounds for dimension 0 with size 0", worker);
  // A bad prompt length is refused with its reason; the last good one stays in use.
  await page.getByTestId("cp-prompt-input").fill("0");
  await expect(page.getByTestId("cp-prompt-problem")).toContainText("at least 1");
  await expect(page.getByTestId("cp-sample")).toContainText("T = 10 + 20 = 30");
  // A long sample at the same cp_size puts the reward where cp_size 1 does.
  await page.getByTestId("cp-prompt-input").fill("300");
  await expect(page.getByTestId("cp-ppo-ok")).toBeVisible(worker);
  await expect(warning).toHaveCount(0);
  await expect(page.getByTestId("cp-equality")).toHaveAttribute("data-state", "equal");

  // The panel's settings are in the link: reloading it reopens the panel as it was.
  await page.getByTestId("cp-step-next").click();
  const panelInLink = () => {
    const { search, hash } = new URL(page.url());
    const s = linkText(search, hash);
    const decoded = s ? decodeState(s) : null;
    return decoded?.ok ? decoded.state.contextParallel : null;
  };
  const settings = { open: true, cpSize: 8, promptLength: 300, step: "shift" };
  await expect.poll(panelInLink, worker).toEqual(settings);
  await page.reload();
  await expect(page.getByTestId("cp-step")).toHaveAttribute("data-step", "shift", worker);
  await expect(page.getByTestId("cp-size-select")).toHaveValue("8");
  await expect(page.getByTestId("cp-prompt-input")).toHaveValue("300");
  await expect(page.getByTestId("cp-sample")).toContainText("T = 300 + 20 = 320", worker);
  expect(problems).toEqual([]);
});
