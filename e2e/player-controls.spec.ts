import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { f64 } from "../src/compute/player/captions";
import { rowInFocus } from "../src/compute/player/focusRow";
import { playerAddress } from "../src/compute/player/playerLink";
import { PLAYER_EXAMPLES } from "../src/compute/player/source";
import { outputErrorBounds, type ScanProblem, serialDiscountedReturns, solve } from "../src/core";
import { materializeRows, stateToProblem } from "../src/io/playgroundProblem";
import type { PlaygroundState } from "../src/io/playgroundState";
import { BASE_SETTINGS } from "../src/io/presets";
import { collectProblems } from "./pageProblems";

/** The tour's example (src/compute/player/source.ts): one row of 14 tokens, its biggest reward on the last token. */
const TOUR_REWARDS = [0, 0.5, 0, 0, -0.25, 0, 0, 0, 0.5, 0, 0, 0, 0, 1];
const T = TOUR_REWARDS.length;

/** core's float64 serial returns of the tour's row at γ, and the float32 chunked scan's bound per token. */
function reference(gamma: number, chunkSize: number): { serial: Float64Array; bound: Float64Array } {
  const rewards = { rows: 1, cols: T, data: Float64Array.from(TOUR_REWARDS, Math.fround) };
  const problem: ScanProblem = { kind: "discounted", rewards, discount: gamma, chunkSize };
  const bounds = outputErrorBounds(problem, { precision: "float32", algorithm: "chunked" });
  return {
    serial: serialDiscountedReturns(rewards, gamma).data,
    bound: bounds.kind === "discounted" ? Float64Array.from(bounds.returns) : new Float64Array(0),
  };
}

async function openTourExample(page: Page): Promise<string[]> {
  const problems = collectProblems(page);
  await page.goto("/?view=player&backend=cpu");
  await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ \d+$/, { timeout: 30_000 });
  await page.locator('[data-control="example"] select').selectOption("tour");
  await expect(page.getByTestId("player-source")).toHaveText(/^Tour · 1 row × 14 tokens, C = 4$/, { timeout: 30_000 });
  await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ 26$/);
  // The keys then go to the player, not to the example's select.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  return problems;
}

/** A typed value, applied with Enter; then the keys go back to the player. */
async function type(page: Page, testId: string, value: string): Promise<void> {
  const input = page.getByTestId(testId);
  await input.fill(value);
  await input.press("Enter");
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

async function carries(page: Page): Promise<Map<number, number>> {
  const shown = await page
    .getByTestId("carry-value")
    .evaluateAll((elements) => elements.map((e) => [Number(e.dataset.chunk), Number(e.dataset.value)] as const));
  return new Map(shown);
}

/** The carry into chunk c is G at the token after it: t = T − c·C, in original time. */
function expectCarries(shown: Map<number, number>, chunks: number, C: number, gamma: number): void {
  const { serial, bound } = reference(gamma, C);
  // The carries made so far: chunks 0 … the current one.
  expect([...shown.keys()].sort()).toEqual(Array.from({ length: chunks }, (_, c) => c));
  expect(shown.get(0)).toBe(0);
  for (let c = 1; c < chunks; c++) {
    const t = T - c * C;
    const value = shown.get(c) ?? Number.NaN;
    expect(Math.abs(value - serial[t]), `carry into chunk ${c} (γ = ${gamma}, C = ${C})`).toBeLessThanOrEqual(bound[t]);
  }
}

test("γ and the chunk size changed in the player: the carries, G_t and the formula card are the new ones", async ({
  page,
}) => {
  const problems = await openTourExample(page);
  // The last carry step shows every chunk's carry: End is the comparison, ← the combine, ← the last carry.
  await page.keyboard.press("End");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByTestId("step-caption")).toContainText("Carry into chunk 3");
  expectCarries(await carries(page), 4, 4, 0.9);

  await type(page, "player-gamma", "0.5");
  await expect(page.getByTestId("player-source")).toHaveText("Edited · 1 row × 14 tokens, C = 4, γ = 0.5", {
    timeout: 30_000,
  });
  await expect(page.getByTestId("player-horizon")).toHaveText("horizon 1/(1−γ) = 2 tokens");
  // Still the carry into chunk 3, now at γ = 0.5.
  await expect(page.getByTestId("step-caption")).toContainText("Carry into chunk 3");
  await expect.poll(async () => (await carries(page)).get(1)).toBeCloseTo(reference(0.5, 4).serial[10], 6);
  expectCarries(await carries(page), 4, 4, 0.5);

  await type(page, "player-chunk-size", "3");
  await expect(page.getByTestId("player-source")).toHaveText("Edited · 1 row × 14 tokens, C = 3, γ = 0.5", {
    timeout: 30_000,
  });
  // 14 tokens in chunks of 3 are 5 chunks: the cursor is still on the carry into chunk 3.
  await expect(page.getByTestId("step-caption")).toContainText("Carry into chunk 3");
  await expect.poll(async () => (await carries(page)).size).toBe(4);
  await expect.poll(async () => (await carries(page)).get(1)).toBeCloseTo(reference(0.5, 3).serial[11], 6);
  expectCarries(await carries(page), 4, 3, 0.5);
  // One step on: the carry into chunk 4, the short one, which C = 4 did not have.
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("step-caption")).toContainText("Carry into chunk 4");
  expectCarries(await carries(page), 5, 3, 0.5);

  // Every G_t at the end, and the formula card of one, against core's serial reference at γ = 0.5.
  await page.keyboard.press("End");
  const { serial, bound } = reference(0.5, 3);
  const results = await page
    .getByTestId("player-stage")
    .locator('[data-lane="result"][data-state="value"]')
    .evaluateAll((elements) =>
      elements.map((e) => [Number(e.getAttribute("data-t")), Number(e.getAttribute("data-value"))]),
    );
  expect(results).toHaveLength(T);
  for (const [t, value] of results) expect(Math.abs(value - serial[t]), `G_${t}`).toBeLessThanOrEqual(bound[t]);
  await page.locator('[data-lane="result"][data-row="0"][data-t="7"]').hover();
  const card = page.getByTestId("formula-card");
  await expect(card).toContainText("G_7 (row 0, chunk 2, k = 0)");
  await expect(card).toContainText(f64(serial[7]));
  // The edited batch is in the address: a reload opens it, on its first step.
  await expect.poll(() => page.url()).toContain("#s=");
  await page.reload();
  await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ \d+$/, { timeout: 30_000 });
  await expect(page.getByTestId("player-gamma")).toHaveValue("0.5");
  await expect(page.getByTestId("player-chunk-size")).toHaveValue("3");
  expect(problems).toEqual([]);
});

test("a bad typed value names its field and keeps the last good one", async ({ page }) => {
  const problems = await openTourExample(page);
  await page.keyboard.press("End");
  const before = await page
    .getByTestId("player-stage")
    .locator('[data-lane="result"][data-t="0"]')
    .getAttribute("data-value");
  await type(page, "player-gamma", "abc");
  await expect(page.getByTestId("player-control-error")).toContainText('γ (discount): "abc" is not a number');
  await expect(page.getByTestId("player-gamma")).toHaveAttribute("aria-invalid", "true");
  await type(page, "player-chunk-size", "1024");
  await expect(page.getByTestId("player-control-error")).toContainText(
    "Chunk size C: The edited batch has chunks of 1,024",
  );
  await type(page, "player-length", "0");
  await expect(page.getByTestId("player-control-error")).toContainText("Length T: 0 is outside [1, 65536]");
  // Nothing changed: the same source, the same numbers.
  await expect(page.getByTestId("player-source")).toHaveText("Tour · 1 row × 14 tokens, C = 4");
  expect(
    await page.getByTestId("player-stage").locator('[data-lane="result"][data-t="0"]').getAttribute("data-value"),
  ).toBe(before);
  // A good value clears its message.
  await type(page, "player-gamma", "1");
  await expect(page.getByTestId("player-horizon")).toHaveText("horizon 1/(1−γ) = ∞");
  await expect(page.getByTestId("player-control-error")).not.toContainText("γ (discount)");
  expect(problems).toEqual([]);
});

test("rewards typed and drawn on the stage's editor change the scan", async ({ page }) => {
  const problems = await openTourExample(page);
  await page.keyboard.press("End");
  await page.getByTestId("player-draw-rewards").click();
  const editor = page.getByTestId("row-editor");
  await expect(editor).toBeVisible();
  // Typed: the last token's reward 1 → 2; the step stays the last (the comparison).
  await editor.focus();
  await editor.press("End");
  await editor.press("Enter");
  await page.getByTestId("exact-value-input").fill("2");
  await page.getByTestId("exact-value-input").press("Enter");
  await expect(page.getByTestId("player-source")).toHaveText("Edited · 1 row × 14 tokens, C = 4, γ = 0.9", {
    timeout: 30_000,
  });
  await expect(page.getByTestId("player-position")).toHaveText("26 / 26");
  const edited = [...TOUR_REWARDS.slice(0, -1), 2];
  const rewards = { rows: 1, cols: T, data: Float64Array.from(edited, Math.fround) };
  const serial = serialDiscountedReturns(rewards, 0.9).data;
  const problem: ScanProblem = { kind: "discounted", rewards, discount: 0.9, chunkSize: 4 };
  const bounds = outputErrorBounds(problem, { precision: "float32", algorithm: "chunked" });
  const bound = bounds.kind === "discounted" ? bounds.returns : new Float64Array(0);
  const stage = page.getByTestId("player-stage");
  await expect(stage.locator('[data-lane="result"][data-t="13"]')).toHaveAttribute("data-value", "2");
  const g0 = Number(await stage.locator('[data-lane="result"][data-t="0"]').getAttribute("data-value"));
  expect(Math.abs(g0 - serial[0])).toBeLessThanOrEqual(bound[0]);
  // Drawn: a stroke across the rewards lane changes the first tokens' rewards.
  const canvas = editor.locator("canvas").first();
  const box = await canvas.boundingBox();
  if (!box) throw new Error("the rewards lane has no box");
  await page.mouse.move(box.x + 4, box.y + 6);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.3, box.y + 8, { steps: 8 });
  await page.mouse.up();
  await expect
    .poll(async () => Number(await stage.locator('[data-lane="input"][data-t="0"]').getAttribute("data-value")))
    .toBeGreaterThan(0.5);
  expect(problems).toEqual([]);
});

test("GAE: λ changes the scan's discount d = γλ, and the advantages follow core's serial reference", async ({
  page,
}) => {
  const problems = collectProblems(page);
  await page.goto("/?view=player&backend=cpu");
  await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ \d+$/, { timeout: 30_000 });
  await page.locator('[data-control="example"] select').selectOption("gae");
  await expect(page.getByTestId("player-source")).toHaveText(/^GAE · /, { timeout: 30_000 });
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await expect(page.getByTestId("player-lambda")).toHaveValue("0.95");
  await type(page, "player-lambda", "0.5");
  await expect(page.getByTestId("player-source")).toHaveText("Edited · 2 rows × 30 tokens, C = 8, γ = 0.99, λ = 0.5", {
    timeout: 30_000,
  });
  await expect(page.getByText("d = γλ = 0.495")).toBeVisible();
  const example = PLAYER_EXAMPLES.find((e) => e.id === "gae")?.state;
  if (!example) throw new Error("no GAE example");
  const problem = stateToProblem({ ...example, lambd: 0.5 }, "float64");
  const serial = solve(problem, "serial").outputs;
  const bounds = outputErrorBounds(problem, { precision: "float32", algorithm: "chunked" });
  if (serial.kind !== "gae" || bounds.kind !== "gae") throw new Error("expected GAE outputs");
  await page.keyboard.press("End");
  const advantages = await page
    .getByTestId("player-stage")
    .locator('[data-lane="result"][data-state="value"]')
    .evaluateAll((elements) =>
      elements.map((e) => [
        Number(e.getAttribute("data-row")),
        Number(e.getAttribute("data-t")),
        Number(e.getAttribute("data-value")),
      ]),
    );
  expect(advantages).toHaveLength(2 * 30);
  for (const [b, t, value] of advantages) {
    const j = b * 30 + t;
    expect(Math.abs(value - serial.advantages[j]), `A (row ${b}, t = ${t})`).toBeLessThanOrEqual(bounds.advantages[j]);
  }
  expect(problems).toEqual([]);
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`${viewport.width} px: axe finds nothing serious with the controls, the reward editor and a refusal open`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const problems = await openTourExample(page);
    await page.getByTestId("player-draw-rewards").click();
    await type(page, "player-chunk-size", "x");
    await expect(page.getByTestId("player-control-error")).toContainText("Chunk size C");
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`)).toEqual([]);
    // Nothing is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    expect(problems).toEqual([]);
  });
}

test("Open in player on 16 × 8192 replays the row the playground had in focus, and says so", async ({ page }) => {
  const problems = collectProblems(page);
  const state: PlaygroundState = {
    ...BASE_SETTINGS,
    estimator: "discounted",
    gamma: 0.99,
    chunkSize: 128,
    selectedRow: 3,
    data: { source: "preset", preset: "dense", seed: 9, rows: 16, tokens: 8192, ragged: false },
  };
  // The address the playground's Open in player writes: the row in focus alone, and which it is.
  const { state: sent, focus } = rowInFocus(state);
  expect(focus).toEqual({ row: 3, rows: 16 });
  await page.goto(`/${playerAddress(sent, undefined, focus).replace("#", "&backend=cpu#")}`);
  await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ \d+$/, { timeout: 60_000 });
  await expect(page.getByTestId("player-focus-note")).toContainText("Row 3 of 16, as the playground had in focus");
  await expect(page.getByTestId("player-source")).toHaveText("From the playground · row 3 of 16");
  await expect(page.getByTestId("error-message")).toHaveCount(0);
  // The numbers are row 3's: G_0 at the end against core's serial reference of that row.
  const row = materializeRows(state)[3];
  const rewards = { rows: 1, cols: 8192, data: Float64Array.from(row.rewards ?? [], Math.fround) };
  const serial = serialDiscountedReturns(rewards, 0.99).data;
  const problem: ScanProblem = { kind: "discounted", rewards, discount: 0.99, chunkSize: 128 };
  const bounds = outputErrorBounds(problem, { precision: "float32", algorithm: "chunked" });
  const bound = bounds.kind === "discounted" ? bounds.returns : new Float64Array(0);
  await page.keyboard.press("End");
  const g0 = Number(
    await page.getByTestId("player-stage").locator('[data-lane="result"][data-t="0"]').getAttribute("data-value"),
  );
  expect(Math.abs(g0 - serial[0])).toBeLessThanOrEqual(bound[0]);
  expect(problems).toEqual([]);
});

test.describe("on a phone (390 × 844)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the step caption sits under the stage while stepping, and the cells print their numbers", async ({ page }) => {
    const problems = await openTourExample(page);
    for (let n = 0; n < 12; n++) await page.keyboard.press("ArrowRight");
    const stage = await page.getByTestId("player-stage").locator("svg").first().boundingBox();
    const caption = await page.getByTestId("step-caption").boundingBox();
    expect(stage && caption).toBeTruthy();
    if (!stage || !caption) return;
    // Right under the cells, and above the transport bar at the bottom of the screen.
    expect(caption.y).toBeGreaterThanOrEqual(stage.y + stage.height);
    expect(caption.y - (stage.y + stage.height)).toBeLessThan(80);
    const transport = await page.locator(".transport").boundingBox();
    expect(caption.y + 24).toBeLessThan(transport?.y ?? 844);
    // The reward lane prints its numbers (the chunk in view holds t = 4 … 7: −0.25 and zeros).
    const printed = await page
      .getByTestId("player-stage")
      .locator('[data-lane="input"] text')
      .evaluateAll((elements) => elements.map((e) => e.textContent));
    expect(printed.length).toBeGreaterThanOrEqual(4);
    expect(printed).toContain("-0.25");
    expect(problems).toEqual([]);
  });
});
