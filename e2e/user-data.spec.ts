import type { Page } from "@playwright/test";
import { collectProblems, expect, test } from "./pageProblems";
import { startStaticServer } from "./staticServer";

/** A little-endian float32 C-order .npy file, as numpy.save writes it. */
function npyFloat32(shape: number[], values: ArrayLike<number>): Buffer {
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(", ");
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${dims}), }`;
  header += " ".repeat((64 - ((10 + header.length + 1) % 64)) % 64);
  header += "\n";
  const prefix = Buffer.from([0x93, ...Buffer.from("NUMPY"), 1, 0, 0, 0]);
  prefix.writeUInt16LE(header.length, 8);
  const data = Buffer.from(new Float32Array(values).buffer);
  return Buffer.concat([prefix, Buffer.from(header, "latin1"), data]);
}

/** A user's own dense batch: varied floats, so the link cannot compress them away. */
function batch(rows: number, tokens: number): Float32Array {
  return Float32Array.from({ length: rows * tokens }, (_, i) => Math.sin(i * 0.37) * 0.5 + ((i * 7919) % 13) / 26);
}

async function settledMaxAbsError(page: Page): Promise<string> {
  await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 90_000 });
  const text = (await page.getByTestId("max-abs-error").textContent()) ?? "";
  expect(Number.isFinite(Number(text)), `max-abs-error "${text}" is a number`).toBe(true);
  return text;
}

async function importFile(page: Page, name: string, buffer: Buffer) {
  await page.getByTestId("case-file-input").setInputFiles({ name, mimeType: "application/octet-stream", buffer });
}

test("a 4 × 3000 .npy import, copied as a link, opens in a new browser, after a reload and on a static host", async ({
  browser,
}) => {
  const context = await browser.newContext();
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await context.newPage();
  const problems = collectProblems(page);
  await page.goto("/?backend=wasm&estimator=discounted");
  await settledMaxAbsError(page);
  await importFile(page, "batch.npy", npyFloat32([4, 3000], batch(4, 3000)));
  await expect(page.getByTestId("import-notes")).toContainText(
    "batch.npy: read a float32 array [4, 3000] into the rewards lane of a new batch of 4 rows × 3000 tokens",
  );
  const maxAbs = await settledMaxAbsError(page);

  await page.getByTestId("copy-link").click();
  await expect(page.getByTestId("link-status")).toContainText(/^Link copied \(\d+\.\d KB, long to paste/);
  await expect(page.getByTestId("link-save-case")).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  const url = new URL(link);
  expect(url.search.length).toBeLessThan(2048);
  expect(url.hash).toMatch(/^#s=/);
  expect(link.length).toBeGreaterThan(8192);

  // Another browser, then a reload: the same batch, the same result.
  const other = await browser.newContext();
  const copy = await other.newPage();
  const copyProblems = collectProblems(copy);
  await copy.goto(link);
  expect(await settledMaxAbsError(copy)).toBe(maxAbs);
  await copy.reload();
  expect(await settledMaxAbsError(copy)).toBe(maxAbs);

  // A static host that refuses request heads over 8 KB (a query-string link would get 431).
  const host = await startStaticServer();
  try {
    const hosted = await other.newPage();
    const hostedProblems = collectProblems(hosted);
    const response = await hosted.goto(`${host.origin}/${url.search}${url.hash}`);
    expect(response?.status()).toBe(200);
    expect(await settledMaxAbsError(hosted)).toBe(maxAbs);
    await hosted.reload();
    expect(await settledMaxAbsError(hosted)).toBe(maxAbs);
    expect(hostedProblems).toEqual([]);
  } finally {
    await host.close();
  }

  // Open in player carries the same inputs through the fragment too.
  await page.getByTestId("open-in-player").click();
  await expect(page).toHaveURL(/\?view=player#s=/);
  await expect(page.getByTestId("player-source")).toContainText("From the playground", { timeout: 60_000 });
  expect(problems).toEqual([]);
  expect(copyProblems).toEqual([]);
  await other.close();
  await context.close();
});

test("every import names its lanes, and no panel computes on zeros where the user has data unannounced", async ({
  page,
}) => {
  await page.goto("/?backend=wasm&estimator=discounted");
  await settledMaxAbsError(page);
  await importFile(page, "rewards.npy", npyFloat32([2, 40], batch(2, 40)));
  await expect(page.getByTestId("import-notes")).toContainText(
    "rewards.npy: read a float32 array [2, 40] into the rewards lane of a new batch of 2 rows × 40 tokens",
  );
  await settledMaxAbsError(page);
  await expect(page.getByTestId("lane-notice")).toHaveCount(0);

  // GAE scans the rewards; the library conventions read KL and outcomes, which this batch lacks.
  await page.getByTestId("estimator-select").selectOption("gae");
  await settledMaxAbsError(page);
  await expect(page.getByTestId("convention-lane-notice")).toContainText("computed on zeros", { timeout: 60_000 });
  await expect(page.getByTestId("convention-check")).toHaveCount(0);

  // REINFORCE++ reads none of the rewards: said above the results and in the context-parallel panel.
  await page.getByTestId("estimator-select").selectOption("reinforce_pp");
  await expect(page.getByTestId("lane-notice")).toContainText(
    "REINFORCE++ reads KL, loss mask and outcome rewards; this batch has none of them, only rewards",
  );
  await page.getByTestId("cp-panel").locator("summary").click();
  await expect(page.getByTestId("cp-lane-notice")).toContainText("computed on zeros");

  // A REINFORCE++ import is asked: KL or rewards.
  await importFile(page, "kl.npy", npyFloat32([2, 40], batch(2, 40)));
  await expect(page.getByTestId("import-question")).toContainText("kl.npy: a float32 array [2, 40].");
  await page.getByTestId("import-choice-kl").click();
  await expect(page.getByTestId("import-notes")).toContainText("into the KL lane of a new batch of 2 rows × 40 tokens");
  await expect(page.getByTestId("lane-notice")).toHaveCount(0);
  await expect(page.getByTestId("cp-lane-notice")).toHaveCount(0);

  // An outcome vector as long as the batch: asked, then one outcome per row.
  await importFile(page, "outcomes.npy", npyFloat32([2], [1, -1]));
  await page.getByTestId("import-choice-outcome").click();
  await expect(page.getByTestId("import-notes")).toContainText(
    "outcomes.npy: read a float32 array [2] into the outcome rewards of the current 2 rows",
  );
  await settledMaxAbsError(page);
  await expect(page.getByTestId("convention-check")).toBeVisible({ timeout: 60_000 });
});

test("when results says done, the returns chart's line and ticks are already on the result's own scale", async ({
  page,
}) => {
  await page.goto("/?backend=wasm&estimator=discounted&preset=dense&rows=4&tokens=300&seed=3");
  const results = page.getByTestId("results");
  await settledMaxAbsError(page);
  // The returns chart is the first chart of the results: its y tick labels and the start of its first line.
  const picture = () =>
    page.evaluate(() => {
      const chart = document.querySelector('[data-testid="results"] svg.token-plot');
      const ticks = [...(chart?.querySelectorAll(".token-plot-y text") ?? [])].map((t) => t.textContent);
      return { ticks, line: chart?.querySelector("path.plot-line")?.getAttribute("d")?.slice(0, 80) ?? "" };
    });
  let before = await picture();
  for (const gamma of ["0.999", "0.5"]) {
    await page.getByTestId("gamma-input").fill(gamma);
    const run = Number(await results.getAttribute("data-run"));
    await page.getByTestId("gamma-input").press("Enter");
    // The first moment results says done for this edit's run: the chart must already show it.
    const done = async () =>
      Number(await results.getAttribute("data-run")) > run && (await results.getAttribute("aria-busy")) === "false";
    await expect.poll(done, { timeout: 60_000, intervals: [5] }).toBe(true);
    const atDone = await picture();
    expect(atDone.line).not.toBe(before.line);
    await page.waitForTimeout(1000);
    expect(await picture()).toEqual(atDone);
    before = atDone;
  }
});
