import { expect, type Page, test } from "@playwright/test";
import { playerAddress } from "../src/compute/player/playerLink";
import {
  chunkedDiscountedReturns,
  outputErrorBounds,
  reinforcePPReturns,
  type ScanProblem,
  serialDiscountedReturns,
  serialReinforcePPReturns,
} from "../src/core";
import { maskWithHoles, normals, seededRandom } from "../src/core/testRandom";
import { buildCase, buildCaseFile } from "../src/io/caseBuilder";
import { BASE_SETTINGS } from "../src/io/presets";
import { collectProblems } from "./pageProblems";

/**
 * The player on a case file built here (never seen by any other test): 2 rows of 29 tokens in
 * chunks of 8 (a short chunk of 5 at the start of the sequence), and a ragged REINFORCE++ batch.
 */
const random = seededRandom(2024);
const RETURNS: ScanProblem<Float64Array> = {
  kind: "discounted",
  rewards: { rows: 2, cols: 29, data: normals(random, 58) },
  discount: 0.93,
  chunkSize: 8,
};
const LENGTHS = [17, 30, 9];
const RAGGED: ScanProblem<Float64Array> = {
  kind: "reinforce_pp",
  batch: {
    rewards: LENGTHS.map(() => Math.fround(random() * 2 - 1)),
    kl: LENGTHS.map((L) => normals(random, L, 0.2)),
    lossMasks: LENGTHS.map((L) => maskWithHoles(random, L)),
  },
  klCoef: 0.1,
  gamma: 0.97,
  chunkSize: 8,
};
const CASE_FILE = JSON.stringify(
  buildCaseFile([buildCase(RETURNS, "player_returns"), buildCase(RAGGED, "player_ragged")], "player e2e"),
);

async function openPlayer(page: Page, query = ""): Promise<string[]> {
  const problems = collectProblems(page);
  await page.goto(`/?view=player&backend=cpu${query}`);
  await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ \d+$/, { timeout: 30_000 });
  return problems;
}

async function loadCases(page: Page): Promise<void> {
  await page
    .getByTestId("case-file-input")
    .setInputFiles({ name: "player_cases.json", mimeType: "application/json", buffer: Buffer.from(CASE_FILE) });
  await expect(page.getByTestId("player-source")).toHaveText(/player_cases\.json · player_returns$/, {
    timeout: 30_000,
  });
  await blur(page);
}

/** Keys then go to the player, as after a click on the page. */
async function blur(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

async function position(page: Page): Promise<[number, number]> {
  const text = (await page.getByTestId("player-position").textContent()) ?? "";
  const [k, n] = text.split("/").map((s) => Number(s.trim()));
  return [k, n];
}

/** Everything the stage and the narrative show, as data: each value with its lane, row, token, state and mark. */
async function snapshot(page: Page): Promise<string[]> {
  const cells = await page
    .getByTestId("player-stage")
    .locator("[data-value]")
    .evaluateAll((elements) =>
      elements.map((e) =>
        ["lane", "row", "t", "chunk", "state", "mark", "value"].map((a) => e.getAttribute(`data-${a}`) ?? "").join("|"),
      ),
    );
  return [(await page.getByTestId("step-caption").textContent()) ?? "", ...cells];
}

interface Cell {
  lane: string;
  row: number;
  t: number;
  value: number;
}

async function cells(page: Page, lane: string): Promise<Cell[]> {
  return page
    .getByTestId("player-stage")
    .locator(`[data-lane="${lane}"][data-state="value"]`)
    .evaluateAll((elements) =>
      elements.map((e) => ({
        lane: e.getAttribute("data-lane") ?? "",
        row: Number(e.getAttribute("data-row")),
        t: Number(e.getAttribute("data-t")),
        value: Number(e.getAttribute("data-value")),
      })),
    );
}

/**
 * One player page for every test of the enclosing describe, run in order (a failure skips the
 * rest): opening the view costs seconds, and these tests need no fresh page, only a known replay.
 * `problems` keeps growing: each test expects it still empty.
 */
function usePlayerPage(prepare: (page: Page) => Promise<void>): { page: Page; problems: string[] } {
  test.describe.configure({ mode: "serial" });
  const shared = { page: undefined as unknown as Page, problems: [] as string[] };
  test.beforeAll(async ({ browser }) => {
    shared.page = await browser.newPage();
    shared.problems = await openPlayer(shared.page);
    await prepare(shared.page);
  });
  test.afterAll(async () => {
    await shared.page?.close();
  });
  return shared;
}

test.describe("the case file built here", () => {
  const loaded = usePlayerPage(loadCases);

  test("steps with the buttons and the keyboard, and plays", async () => {
    const { page, problems } = loaded;
    const [, total] = await position(page);
    // 2 + 29 local steps + 4 chunk ends + 4 carries + combine + compare: the 29 tokens in 4 chunks of 8.
    expect(total).toBe(2 + 29 + 4 + 4 + 2);
    const caption = page.getByTestId("step-caption");
    await expect(caption).toContainText("Reverse time");

    await page.getByRole("button", { name: "Step forward" }).click();
    await expect(page.getByTestId("player-position")).toHaveText(`2 / ${total}`);
    await expect(caption).toContainText("Pad each reversed row with 3 zeros");
    await page.keyboard.press("ArrowRight");
    await expect(page.getByTestId("player-position")).toHaveText(`3 / ${total}`);
    await expect(caption).toContainText("Chunk 0, k = 0 (t = 28)");
    await page.getByRole("button", { name: "Step back" }).click();
    await expect(page.getByTestId("player-position")).toHaveText(`2 / ${total}`);
    await page.keyboard.press("ArrowRight");
    // Shift+→: the next phase, here chunk 1's local scan (after chunk 0's 8 tokens and its end).
    await page.keyboard.press("Shift+ArrowRight");
    await expect(page.getByTestId("player-position")).toHaveText(`${3 + 9} / ${total}`);
    await expect(caption).toContainText("Chunk 1, k = 0 (t = 20)");
    await page.keyboard.press("Shift+ArrowLeft");
    await expect(page.getByTestId("player-position")).toHaveText(`3 / ${total}`);
    await page.keyboard.press("End");
    await expect(page.getByTestId("player-position")).toHaveText(`${total} / ${total}`);
    await expect(caption).toContainText("Compare with the float64 serial loop");
    await page.keyboard.press("Home");
    await expect(page.getByTestId("player-position")).toHaveText(`1 / ${total}`);

    // Space plays; the Pause button appears and the cursor moves on its own; Space again pauses.
    await blur(page);
    await page.keyboard.press("]");
    await page.keyboard.press("]");
    await page.keyboard.press("Space");
    await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
    await expect.poll(async () => (await position(page))[0], { timeout: 5000 }).toBeGreaterThan(2);
    await page.keyboard.press("Space");
    await expect(page.getByRole("button", { name: "Play" })).toBeVisible();
    const paused = await position(page);
    await page.waitForTimeout(600);
    expect(await position(page)).toEqual(paused);
    expect(problems).toEqual([]);
  });

  test("scrubbing back to a step restores exactly the same picture", async () => {
    const { page, problems } = loaded;
    await blur(page);
    const scrubber = page.getByTestId("player-scrubber");
    for (const step of [13, 37]) {
      // Reach the step with the keyboard from the start, then scrub away and back to it.
      await page.keyboard.press("Home");
      for (let k = 0; k < step; k++) await page.keyboard.press("ArrowRight");
      await expect(page.getByTestId("player-position")).toHaveText(new RegExp(`^${step + 1} / `));
      const before = await snapshot(page);
      expect(before.length).toBeGreaterThan(100);
      await scrubber.fill("0");
      await scrubber.fill("40");
      await expect(page.getByTestId("player-position")).toHaveText("41 / 41");
      expect(await snapshot(page)).not.toEqual(before);
      await scrubber.fill(String(step));
      await expect(page.getByTestId("player-position")).toHaveText(new RegExp(`^${step + 1} / `));
      expect(await snapshot(page)).toEqual(before);
      await blur(page);
    }
    expect(problems).toEqual([]);
  });

  test("the carries shown are the engine's, and every final value is within its bound of serial", async () => {
    const { page, problems } = loaded;
    await blur(page);
    const { rows, cols, data } = RETURNS.kind === "discounted" ? RETURNS.rewards : ({} as never);
    const core = chunkedDiscountedReturns({ rows, cols, data: Float32Array.from(data) }, 0.93, { chunkSize: 8 });
    const serial = serialDiscountedReturns(RETURNS.kind === "discounted" ? RETURNS.rewards : ({} as never), 0.93).data;
    const bounds = outputErrorBounds(RETURNS, { precision: "float32", algorithm: "chunked" });
    const bound = bounds.kind === "discounted" ? bounds.returns : new Float64Array(0);

    // The last carry step shows every chunk's carry, per row.
    await page.keyboard.press("End");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await expect(page.getByTestId("step-caption")).toContainText("Carry into chunk 3");
    const carries = await page
      .getByTestId("carry-value")
      .evaluateAll((elements) =>
        elements.map((e) => [Number(e.dataset.row), Number(e.dataset.chunk), Number(e.dataset.value)] as const),
      );
    expect(carries).toHaveLength(2 * 4);
    const results = await cells(page, "result");
    for (const [b, c, value] of carries) {
      const expected = core.trace.carriesIn[b * 4 + c];
      if (c === 0) {
        expect(value).toBe(0);
        continue;
      }
      // The carry is the value at the end of the previous chunk: the page shows both, bit for bit equal.
      const source = 29 - c * 8;
      expect(results.find((cell) => cell.row === b && cell.t === source)?.value).toBe(value);
      // Engine and core each lie within the bound of the truth at that token.
      expect(Math.abs(value - expected)).toBeLessThanOrEqual(2 * bound[b * 29 + source]);
    }

    await page.keyboard.press("End");
    const finals = await cells(page, "result");
    expect(finals).toHaveLength(2 * 29);
    const shownSerial = await cells(page, "serial");
    for (const cell of finals) {
      const j = cell.row * 29 + cell.t;
      expect(Math.abs(cell.value - serial[j]), `row ${cell.row}, t = ${cell.t}`).toBeLessThanOrEqual(bound[j]);
      expect(Math.fround(cell.value)).toBe(cell.value);
    }
    for (const cell of shownSerial) expect(cell.value).toBe(serial[cell.row * 29 + cell.t]);
    await expect(page.getByTestId("player-over-bound")).toHaveText("0");
    await expect(page.getByTestId("player-replay-mismatches")).toHaveText("0");

    // Hovering an output opens its formula with the serial value it must equal.
    const cell = page.locator('[data-lane="result"][data-row="1"][data-t="10"]');
    await cell.hover();
    const card = page.getByTestId("formula-card");
    await expect(card).toBeVisible();
    await expect(card).toContainText("G_10 (row 1, chunk 2, k = 2)");
    await expect(card.locator(".katex").first()).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("REINFORCE++: token rewards, padding, trim, and every row's outputs within bound", async () => {
    const { page, problems } = loaded;
    await blur(page);
    await page.getByTestId("player-case-select").selectOption({ label: "player_ragged (reinforce_pp)" });
    await expect(page.getByTestId("player-source")).toHaveText(/player_ragged$/, { timeout: 30_000 });
    await blur(page);
    await expect(page.getByTestId("step-caption")).toContainText("Token rewards, part 1");
    const { returns } = serialReinforcePPReturns(
      RAGGED.kind === "reinforce_pp" ? RAGGED.batch : ({} as never),
      0.1,
      0.97,
    );
    const batch = RAGGED.kind === "reinforce_pp" ? RAGGED.batch : ({} as never);
    const chunked = reinforcePPReturns({ ...batch, kl: batch.kl.map((row) => Float32Array.from(row)) }, 0.1, 0.97, {
      chunkSize: 8,
    });
    const bounds = outputErrorBounds(RAGGED, { precision: "float32", algorithm: "chunked" });
    if (bounds.kind !== "reinforce_pp") throw new Error("expected REINFORCE++ bounds");

    await page.keyboard.press("ArrowRight");
    await expect(page.getByTestId("step-caption")).toContainText("outcome reward");
    const inputs = await cells(page, "input");
    for (const cell of inputs) expect(cell.value).toBe(chunked.tokenLevelRewards[cell.row][cell.t]);
    expect(inputs).toHaveLength(LENGTHS.reduce((a, b) => a + b, 0));

    await page.keyboard.press("End");
    const finals = await cells(page, "result");
    expect(finals).toHaveLength(LENGTHS.reduce((a, b) => a + b, 0));
    for (const cell of finals) {
      const error = Math.abs(cell.value - returns[cell.row][cell.t]);
      expect(error, `row ${cell.row}, t = ${cell.t}`).toBeLessThanOrEqual(bounds.returns[cell.row][cell.t]);
    }
    // The trim leaves the padded positions of the short rows empty: 30 − 17 and 30 − 9 of them.
    await expect(page.locator('[data-lane="result"][data-state="trimmed"]')).toHaveCount(13 + 21);
    expect(problems).toEqual([]);
  });
});

test.describe("the built-in examples", () => {
  const example = usePlayerPage(async () => {});

  test("the tour opens its own example and moves forward through it, every stop on its step", async () => {
    const { page, problems } = example;
    // The first screen says what the player is and offers the tour.
    await expect(page.getByTestId("player-intro")).toContainText("replayed step by step");
    await page.getByTestId("player-intro").getByRole("button", { name: "Take the tour" }).click();
    await expect(page.getByTestId("player-intro")).toHaveCount(0);
    const tour = page.getByTestId("tour-panel");
    await expect(tour).toContainText("1 · The serial loop");
    await expect(page.getByTestId("player-source")).toHaveText(/^Tour · /, { timeout: 30_000 });
    await expect(page.getByTestId("step-caption")).toContainText("Reverse time");
    const seen: number[] = [];
    for (let stop = 1; stop <= 9; stop++) {
      seen.push((await position(page))[0]);
      if (stop < 9) await tour.getByRole("button", { name: "Next", exact: true }).click();
    }
    await expect(tour).toContainText("9 · Check every cell");
    // Strictly forward: each stop lands after the one before, the last on the last step.
    for (let n = 1; n < seen.length; n++) expect(seen[n]).toBeGreaterThan(seen[n - 1]);
    const [at, total] = await position(page);
    expect(at).toBe(total);
    await expect(page.getByTestId("step-caption")).toContainText("Compare with the float64 serial loop");
    await tour.getByRole("button", { name: "Back", exact: true }).click();
    await expect(tour).toContainText("8 · Back to original time");
    await expect(page.getByTestId("step-caption")).toContainText("Un-pad and reverse back");
    await tour.getByRole("button", { name: "Skip" }).click();
    await expect(tour).toHaveCount(0);
    expect(problems).toEqual([]);
  });

  test("a bad case file is reported and the current run stays", async () => {
    const { page, problems } = example;
    const before = await snapshot(page);
    await page
      .getByTestId("case-file-input")
      .setInputFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from("{ cases: [") });
    await expect(page.getByTestId("error-message")).toContainText("broken.json: not valid JSON");
    expect(await snapshot(page)).toEqual(before);
    expect(problems).toEqual([]);
  });

  test("T = 4096: a drag of the scrubber end to end and back lands on the steps it passes", async () => {
    // How long each frame takes is measured by `npm run bench:player`, never asserted here.
    const { page, problems } = example;
    await page.getByLabel("Example").selectOption("long");
    await expect(page.getByTestId("player-source")).toHaveText(/4096 tokens/, { timeout: 30_000 });
    await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ 516$/);
    await blur(page);
    const first = await snapshot(page);
    const landed = await page.evaluate(async () => {
      const input = document.querySelector<HTMLInputElement>('[data-testid="player-scrubber"]');
      const position = document.querySelector('[data-testid="player-position"]');
      if (!input || !position) throw new Error("no scrubber");
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
      const forward: number[] = [];
      for (let k = 0; k <= Number(input.max); k += 6) forward.push(k);
      const drag = [...forward, Number(input.max), ...forward.reverse()];
      const seen: string[] = [];
      for (const k of drag) {
        setValue?.call(input, String(k));
        input.dispatchEvent(new Event("input", { bubbles: true }));
        await new Promise((resolve) => requestAnimationFrame(resolve));
        seen.push(position.textContent ?? "");
      }
      return { seen, drag };
    });
    // Each position shows the step under the scrubber, the last one included.
    expect(landed.seen).toEqual(landed.drag.map((k) => `${k + 1} / 516`));
    await expect(page.getByTestId("player-position")).toHaveText("1 / 516");
    expect(await snapshot(page)).toEqual(first);
    expect(problems).toEqual([]);
  });
});

test("opens a playground state from ?view=player&s=…, and reports a damaged one", async ({ page }) => {
  const values = [0.5, -0.25, 0.125, 1, 0, -1, 0.75, 0.5, 0.25, -0.5, 2, 0.5];
  const state = {
    ...BASE_SETTINGS,
    estimator: "gae" as const,
    gamma: 0.9,
    lambd: 0.8,
    chunkSize: 4,
    data: {
      source: "inline" as const,
      rows: [{ length: 12, rewards: values, values: values.map((v) => v / 2) }],
    },
  };
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  await page.goto(`/${playerAddress(state).replace("#", "&backend=cpu#")}`);
  await expect(page.getByTestId("player-source")).toHaveText("From the playground", { timeout: 30_000 });
  // GAE: residuals and γλ first, then reverse, pad (none), 12 local steps + 3 chunk ends, 3 carries, combine, returns, compare.
  await expect(page.getByTestId("player-position")).toHaveText(`1 / ${2 + 2 + 15 + 3 + 3}`);
  await expect(page.getByTestId("step-caption")).toContainText(
    "δ_11 = 0.500000000 + 0.9·0 − 0.250000000 = 0.250000000",
  );

  await page.goto("/?view=player&backend=cpu&s=damaged");
  await expect(page.getByTestId("url-notice")).toContainText("Player link");
  await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ \d+$/, { timeout: 30_000 });
  expect(problems).toEqual([]);
});
