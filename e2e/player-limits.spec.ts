import { expect, test } from "@playwright/test";
import { playerAddress } from "../src/compute/player/playerLink";
import { buildCase, buildCaseFile } from "../src/io/caseBuilder";
import { BASE_SETTINGS } from "../src/io/presets";

/** One row of two tokens in chunks of C: tiny as rows × tokens, but a whole padded chunk and a C × C matrix. */
function wide(chunkSize: number) {
  return {
    ...BASE_SETTINGS,
    estimator: "discounted" as const,
    gamma: 0.9,
    chunkSize,
    data: { source: "inline" as const, rows: [{ length: 2, rewards: [1, 2] }] },
  };
}

const wideCase = (chunkSize: number) =>
  buildCase(
    { kind: "discounted", rewards: { rows: 1, cols: 2, data: new Float64Array([1, 2]) }, discount: 0.9, chunkSize },
    `wide_${chunkSize}`,
  );

test("the player refuses a case of two tokens in chunks of 16384 at once (it froze the page 11 s)", async ({
  page,
}) => {
  await page.goto("/?view=player&backend=cpu");
  await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ \d+$/, { timeout: 30_000 });
  const file = JSON.stringify(buildCaseFile([wideCase(16384)], "wide"));
  const started = Date.now();
  await page
    .getByTestId("case-file-input")
    .setInputFiles({ name: "wide.json", mimeType: "application/json", buffer: Buffer.from(file) });
  await expect(page.getByTestId("error-message")).toContainText(
    "wide.json: case wide_16384 has chunks of 16,384: a 16,384 × 16,384 discount matrix",
    { timeout: 15_000 },
  );
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(await page.evaluate(() => 1 + 1)).toBe(2);
});

test("two tokens in chunks of 512, the limit, replay to the last step; 1024 from the playground is refused", async ({
  page,
}) => {
  await page.goto(`/${playerAddress(wide(512)).replace("#", "&backend=cpu#")}`);
  await expect(page.getByTestId("player-source")).toHaveText("From the playground", { timeout: 30_000 });
  await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ \d+$/, { timeout: 30_000 });
  await page.keyboard.press("End");
  await expect(page.getByTestId("step-caption")).toContainText("all 2 measured cells are within their error bound");
  await page.goto(`/${playerAddress(wide(1024)).replace("#", "&backend=cpu#")}`);
  await expect(page.getByTestId("error-message")).toContainText(
    "This batch has chunks of 1,024: a 1,024 × 1,024 discount matrix",
    { timeout: 15_000 },
  );
});
