import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { decodeState, linkText } from "../src/io/shareLink";
import { collectProblems } from "./pageProblems";
import { afterRun, exportFile } from "./playgroundPage";

const publicCases = JSON.parse(readFileSync(new URL("../cases/public_cases.json", import.meta.url), "utf8"));

/**
 * Opens the playground and watches it: console errors (page and workers), page errors, and any
 * request that leaves the page's own origin. `finish` asserts none happened.
 */
async function openPlayground(page: Page, query = "") {
  const problems = collectProblems(page);
  const foreign: string[] = [];
  const origin = new URL(test.info().project.use.baseURL ?? "http://127.0.0.1").origin;
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!["data:", "blob:"].includes(url.protocol) && url.origin !== origin) foreign.push(request.url());
  });
  await page.goto(`/${query}`);
  return {
    finish() {
      expect(problems).toEqual([]);
      expect(foreign).toEqual([]);
    },
  };
}

/** Waits until the results belong to a finished run, and returns the max abs error as a number. */
async function settledMaxAbsError(page: Page): Promise<number> {
  await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  const text = (await page.getByTestId("max-abs-error").textContent()) ?? "";
  const value = Number(text);
  expect(Number.isFinite(value), `max-abs-error "${text}" is a number`).toBe(true);
  return value;
}

/** Does `edit`, then waits for the first result computed after it and returns its max abs error. */
async function afterEdit(page: Page, edit: () => Promise<void>): Promise<number> {
  await afterRun(page, edit);
  return settledMaxAbsError(page);
}

/** A chart line's path once the chart has caught up: charts redraw in a deferred render after a result or a row change. */
async function settledPath(line: Locator): Promise<string | null> {
  let previous = await line.getAttribute("d");
  for (let i = 0; i < 40; i++) {
    await line.page().waitForTimeout(250);
    const current = await line.getAttribute("d");
    if (current === previous) return current;
    previous = current;
  }
  throw new Error("the chart kept changing");
}

async function loadFile(page: Page, name: string, buffer: Buffer, mimeType = "application/octet-stream") {
  await page.getByTestId("case-file-input").setInputFiles({ name, mimeType, buffer });
}

/** The editor's exact value at a token of the selected row, read through the keyboard cursor. */
async function valueAt(page: Page, token: number): Promise<string> {
  const editor = page.getByTestId("row-editor");
  await editor.focus();
  await editor.press("Home");
  for (let t = 0; t < token; t++) await editor.press("ArrowRight");
  return (await page.getByTestId("cursor-value").textContent()) ?? "";
}

test("the built-in example is computed on the first visit", async ({ page }) => {
  const watch = await openPlayground(page);
  await expect(page.getByRole("link", { name: "Playground" })).toHaveAttribute("aria-current", "page");
  const maxAbs = await settledMaxAbsError(page);
  expect(maxAbs).toBeGreaterThan(0);
  expect(maxAbs).toBeLessThan(1e-4);
  await expect(page.getByTestId("backend")).toHaveText(/^(webgpu|webgl|wasm|cpu)$/);
  await expect(page.getByTestId("strategy")).toHaveText("chunked");
  await expect(page.getByTestId("cells-over-bound")).toHaveText(/^0 \/ [\d,]+$/);
  await expect(page.locator("canvas.error-heatmap, .error-heatmap canvas").first()).toBeVisible();
  await expect(page.getByTestId("error-message")).toHaveCount(0);
  watch.finish();
});

test("the returns chart's PNG export draws its lines", async ({ page }) => {
  const watch = await openPlayground(page);
  await settledMaxAbsError(page);
  await expect(page.locator(".returns-chart path.plot-line")).toHaveCount(2);
  await page.getByRole("button", { name: /^Export/ }).click();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-png-returns").click()]);
  const png = readFileSync(await download.path()).toString("base64");
  // Pixels of the reference line's colour (#0072B2), decoded by the page: the line is a few thousand,
  // its legend swatch a few hundred.
  const blue = await page.evaluate(async (png) => {
    const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
    const context = new OffscreenCanvas(image.width, image.height).getContext("2d");
    if (!context) return -1;
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i]) + Math.abs(data[i + 1] - 114) + Math.abs(data[i + 2] - 178) < 40) count++;
    }
    return count;
  }, png);
  expect(blue).toBeGreaterThan(1000);
  watch.finish();
});

test("drawing on the editor with the mouse changes the chart and the summary; undo takes the stroke back", async ({
  page,
}) => {
  const watch = await openPlayground(page, "?backend=wasm");
  const before = await settledMaxAbsError(page);
  // Draw on the row that holds the batch's largest error, so the batch figure must move too.
  await page.getByRole("button", { name: /^Worst cell: row/ }).click();
  const line = page.locator(".returns-chart path.plot-line").first();
  const pathBefore = await settledPath(line);
  const lane = page.locator('canvas[data-lane="kl"]');
  await lane.scrollIntoViewIfNeeded(); // the worst-cell button scrolled the heatmap into view
  const box = await lane.boundingBox();
  if (!box) throw new Error("the KL lane is not drawn");
  const after = await afterEdit(page, async () => {
    await page.mouse.move(box.x + box.width * 0.05, box.y + box.height * 0.8);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.1, { steps: 12 });
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height * 0.3, { steps: 12 });
    await page.mouse.up();
  });
  expect(after).not.toBe(before);
  await expect(line).not.toHaveAttribute("d", pathBefore ?? "");
  expect(await afterEdit(page, () => page.keyboard.press("Control+z"))).toBe(before);
  await expect(line).toHaveAttribute("d", pathBefore ?? "");
  expect(await afterEdit(page, () => page.keyboard.press("Control+Shift+z"))).toBe(after);
  watch.finish();
});

test("a case file gives a max abs error within its tolerance, and its other cases open from the picker", async ({
  page,
}) => {
  const watch = await openPlayground(page, "?backend=wasm");
  await settledMaxAbsError(page);
  const names = ["disc_d0.99_B3_T1000_C128", "gae_g0.99_l0.95_B2_T300_C16", "rpp_varlen_holes_g0.99"];
  const cases = names.map((name) => publicCases.cases.find((c: { name: string }) => c.name === name));
  const file = { meta: { schema_version: 1 }, cases };
  for (const [i, c] of cases.entries()) {
    const maxAbs = await afterEdit(page, async () => {
      if (i === 0) await loadFile(page, "three_cases.json", Buffer.from(JSON.stringify(file)), "application/json");
      else await page.getByTestId("case-select").selectOption(String(i));
    });
    await expect(page.getByTestId("case-tolerance")).toHaveText(String(c.tolerance.float32));
    expect(maxAbs).toBeGreaterThan(0);
    expect(maxAbs).toBeLessThanOrEqual(c.tolerance.float32);
    await expect(page.getByTestId("case-verdict")).toContainText("within the tolerance");
  }
  await expect(page.getByTestId("estimator-select")).toHaveValue("reinforce_pp");
  watch.finish();
});

test("the link reproduces the view in a new page: same inputs, same max abs error", async ({ page, browser }) => {
  const watch = await openPlayground(page, "?backend=wasm");
  await settledMaxAbsError(page);
  await afterEdit(page, () =>
    page
      .getByTestId("estimator-select")
      .selectOption("discounted")
      .then(() => {}),
  );
  await afterEdit(page, async () => {
    await page.getByTestId("gamma-input").fill("0.97");
    await page.getByTestId("gamma-input").press("Enter");
  });
  const maxAbs = await afterEdit(page, async () => {
    const editor = page.getByTestId("row-editor");
    await editor.focus();
    await editor.press("Home");
    await editor.press("ArrowRight");
    await editor.press("Enter");
    await page.getByTestId("exact-value-input").fill("2.5");
    await page.getByTestId("exact-value-input").press("Enter");
  });
  // The address follows each edit a moment later: read the link once it holds the last one.
  await expect
    .poll(() => {
      const decoded = decodeState(linkText(new URL(page.url()).search, new URL(page.url()).hash) ?? "");
      if (!decoded.ok || decoded.state.data.source !== "inline") return null;
      return [decoded.state.gamma, decoded.state.data.rows[0].rewards?.[1]];
    })
    .toEqual([0.97, 2.5]);
  await expect.poll(() => page.evaluate(() => new URLSearchParams(location.search).has("backend"))).toBe(false);
  const url = page.url();

  const other = await browser.newContext();
  const copy = await other.newPage();
  // The state is in the fragment, which no server sees: the request line stays short on any host.
  expect(new URL(url).search.length).toBeLessThan(2048);
  expect(new URL(url).hash).toMatch(/^#s=/);
  const watchCopy = await openPlayground(copy, `${new URL(url).search}${new URL(url).hash}`);
  expect(await settledMaxAbsError(copy)).toBe(maxAbs);
  await expect(copy.getByTestId("gamma-input")).toHaveValue("0.97");
  await expect(copy.getByTestId("estimator-select")).toHaveValue("discounted");
  expect(await valueAt(copy, 1)).toBe("2.5");
  watchCopy.finish();
  await other.close();
  watch.finish();
});

test("an exported case file passes npx scanlab check", async ({ page }, testInfo) => {
  const watch = await openPlayground(page, "?backend=wasm");
  await settledMaxAbsError(page);
  const path = await exportFile(page, "export-case", testInfo);
  const report = execFileSync("node", ["--no-concurrent-recompilation", "bin/scanlab.mjs", "check", path], {
    encoding: "utf8",
  });
  expect(report).toMatch(/1 passed, 0 failed/);
  const exported = JSON.parse(readFileSync(path, "utf8"));
  expect(exported.cases[0].kind).toBe("reinforce_pp");
  expect(exported.cases[0].lengths).toHaveLength(4);
  // slime scans REINFORCE++ in chunks of 128, and the tables are torch's: slime-exact replays the file.
  expect(exported.cases[0].params.chunk_size).toBe(128);
  const exact = execFileSync(
    "node",
    ["--no-concurrent-recompilation", "bin/scanlab.mjs", "check", path, "--mode", "slime-exact"],
    { encoding: "utf8" },
  );
  expect(exact).toMatch(/1 passed, 0 failed/);
  watch.finish();
});

test("a CSV and a .npy written here load the right numbers", async ({ page }) => {
  const watch = await openPlayground(page, "?backend=wasm");
  await settledMaxAbsError(page);
  // REINFORCE++ is showing, so the page asks: KL (one row per line, ragged) or rewards.
  await loadFile(page, "kl.csv", Buffer.from("0.5,-1.25,3\n2,4\n"), "text/csv");
  await afterEdit(page, () => page.getByTestId("import-choice-kl").click());
  await expect(page.getByTestId("import-notes")).toContainText("into the KL lane of a new batch");
  await expect(page.getByTestId("row-select").locator("option")).toHaveCount(2);
  expect(await valueAt(page, 1)).toBe("-1.25");
  await page.getByTestId("row-select").selectOption("1");
  expect(await valueAt(page, 1)).toBe("4");

  // A [2, 3] float64 array as numpy writes it: 1/3 becomes the float32 0.33333334.
  await afterEdit(page, () =>
    page
      .getByTestId("estimator-select")
      .selectOption("discounted")
      .then(() => {}),
  );
  const values = [0.25, 1 / 3, -2, 7, 0, 1e-3];
  // Row 1's return at token 0 (rewards 7, 0, 0.001 at γ 0.99) is checked in the hover readout below.
  await afterEdit(page, () => loadFile(page, "rewards.npy", npyFloat64([2, 3], values)));
  await expect(page.getByTestId("import-notes")).toContainText("float64 values rounded to float32");
  expect(await valueAt(page, 1)).toBe("0.33333334");
  await page.getByTestId("row-select").selectOption("1");
  expect(await valueAt(page, 0)).toBe("7");
  await page.locator('canvas[data-lane="rewards"]').hover({ position: { x: 3, y: 10 } });
  const serial = page.getByTestId("hover-readout").locator("div", { hasText: "serial float64" }).locator("dd");
  const G1 = 0.99 * Math.fround(0.001);
  await expect(serial).toHaveText(String(7 + 0.99 * G1));
  watch.finish();
});

test("a bad file or value shows what is wrong and where, and keeps the last result", async ({ page }) => {
  const watch = await openPlayground(page, "?backend=wasm");
  const before = await settledMaxAbsError(page);
  const beforeText = (await page.getByTestId("max-abs-error").textContent()) ?? "";
  await loadFile(page, "bad.csv", Buffer.from("1,2,3\n4,x,6\n"), "text/csv");
  const error = page.getByTestId("error-message");
  await expect(error).toContainText("bad.csv");
  await expect(error).toContainText("line 2");
  await expect(page.getByTestId("max-abs-error")).toHaveText(beforeText);
  await loadFile(page, "broken.npy", Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 3, 0]));
  await expect(error).toContainText("broken.npy");
  await page.getByTestId("chunk-size-input").fill("0");
  await page.getByTestId("chunk-size-input").press("Enter");
  await expect(error).toContainText("chunk size 0 is below 1");
  await expect(page.getByTestId("chunk-size-input")).toHaveAttribute("aria-invalid", "true");
  expect(await settledMaxAbsError(page)).toBe(before);
  await expect(page.getByTestId("row-select").locator("option")).toHaveCount(4);
  watch.finish();
});

/** A little-endian float64 C-order .npy file, as numpy.save writes it. */
function npyFloat64(shape: number[], values: number[]): Buffer {
  let header = `{'descr': '<f8', 'fortran_order': False, 'shape': (${shape.join(", ")}${shape.length === 1 ? "," : ""}), }`;
  const unpadded = 10 + header.length + 1;
  header += " ".repeat((64 - (unpadded % 64)) % 64);
  header += "\n";
  const prefix = Buffer.alloc(10);
  Buffer.from([0x93, ...Buffer.from("NUMPY"), 1, 0]).copy(prefix);
  prefix.writeUInt16LE(header.length, 8);
  const data = Buffer.alloc(values.length * 8);
  values.forEach((v, i) => {
    data.writeDoubleLE(v, i * 8);
  });
  return Buffer.concat([prefix, Buffer.from(header, "latin1"), data]);
}

test("Open in player shows the same inputs in the step-by-step player", async ({ page }) => {
  const session = await openPlayground(page);
  await settledMaxAbsError(page);
  await page.getByTestId("open-in-player").click();
  await expect(page).toHaveURL(/[?&]view=player#s=/);
  await expect(page.getByTestId("player-source")).toContainText("From the playground", { timeout: 30_000 });
  await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ \d+$/);
  session.finish();
});
