import { expect, type Page, test } from "@playwright/test";
import { unseenCaseFile } from "../src/testing/unseenCases";
import { loadCaseFile, openConformance, publicCasesText as publicCases, useConformancePage } from "./conformance-page";

/** Chooses `strategy` in the menu, which runs the file again: the finished summary goes at once. */
async function rerunWith(page: Page, strategy: string): Promise<void> {
  await page.getByTestId("strategy-select").selectOption(strategy);
  expect(await page.getByTestId("conformance-summary").count()).toBe(0);
}

async function expectAllPassed(page: Page, backend: string, count: number, timeout: number): Promise<void> {
  await expect(page.getByTestId("conformance-summary")).toHaveText(`${count} passed, 0 failed`, { timeout });
  await expect(page.getByTestId("backend")).toHaveText(backend);
  await expect(page.getByTestId("error-message")).toHaveCount(0);
  await expect(page.getByTestId("backend-notice")).toHaveCount(0);
}

/**
 * One page per backend: opening the view and starting a backend cost seconds each time, and on
 * webgpu a new page compiles every shader again. The strategies are switched with the menu, which
 * runs the file again, as a user would.
 */
test.describe("on webgpu", () => {
  const shared = useConformancePage("backend=webgpu");

  test("the public cases pass on webgpu", async () => {
    const { page, problems } = shared;
    await loadCaseFile(page, "public_cases.json", publicCases);
    await expectAllPassed(page, "webgpu", 33, 90_000);
    await expect(page.getByTestId("strategy-select")).toHaveValue("chunked");
    expect(problems).toEqual([]);
  });

  for (const strategy of ["two-level", "per-token"]) {
    test(`the public cases pass on webgpu with the ${strategy} strategy`, async () => {
      const { page, problems } = shared;
      await rerunWith(page, strategy);
      await expectAllPassed(page, "webgpu", 33, 90_000);
      await expect(page.getByTestId("strategy-select")).toHaveValue(strategy);
      expect(problems).toEqual([]);
    });
  }

  test("a case file the page has never seen passes on webgpu: T = 8192, 20000, ragged batches of 16, C = 1, C > T, huge and tiny values, the fully masked error", async () => {
    const { page, problems } = shared;
    await rerunWith(page, "chunked");
    await expectAllPassed(page, "webgpu", 33, 90_000);
    const file = unseenCaseFile();
    await loadCaseFile(page, "unseen.json", JSON.stringify(file));
    await expectAllPassed(page, "webgpu", file.cases.length, 120_000);
    await expect(page.getByTestId("strategy-select")).toHaveValue("chunked");
    await expect(page.getByTestId("adapter")).toContainText("fallback adapter");
    expect(problems).toEqual([]);
  });
});

test.describe("on wasm", () => {
  const shared = useConformancePage("backend=wasm");

  test("a malformed file shows the field at fault", async () => {
    const { page, problems } = shared;
    const file = { meta: { schema_version: 1 }, cases: [{ ...JSON.parse(publicCases).cases[0], shape: [1, -3] }] };
    await loadCaseFile(page, "broken.json", JSON.stringify(file));
    await expect(page.getByTestId("error-message")).toContainText(`cases[0] ("${file.cases[0].name}").shape[1]`);
    await expect(page.getByTestId("conformance-summary")).toHaveCount(0);
    await loadCaseFile(page, "not-json.json", "{ cases: [");
    await expect(page.getByTestId("error-message")).toContainText("not-json.json: not valid JSON");
    expect(problems).toEqual([]);
  });

  test("the public cases pass on wasm, and a bad file after them leaves their results in place", async () => {
    const { page, problems } = shared;
    await loadCaseFile(page, "public_cases.json", publicCases);
    await expectAllPassed(page, "wasm", 33, 60_000);

    const bad = JSON.parse(publicCases);
    bad.cases[2].params.chunk_size = "128";
    await loadCaseFile(page, "bad.json", JSON.stringify(bad));
    const error = page.getByTestId("error-message");
    await expect(error).toContainText("bad.json: not a valid case file");
    await expect(error).toContainText(`cases[2] ("${bad.cases[2].name}").params.chunk_size`);
    await expect(page.getByTestId("conformance-summary")).toHaveText("33 passed, 0 failed");
    expect(problems).toEqual([]);
  });
});

test("an unknown backend in the address is reported, not fatal", async ({ page }) => {
  const problems = await openConformance(page, "backend=cuda&strategy=two-level");
  await expect(page.getByTestId("url-notice")).toContainText("Address: backend=cuda: expected one of");
  await expect(page.getByTestId("strategy-select")).toHaveValue("two-level");
  expect(problems).toEqual([]);
});

/** The same browser without `--enable-unsafe-webgpu`: headless Chromium on Linux then has no WebGPU adapter. */
const withoutWebGPU = test.extend({
  launchOptions: [
    async ({ launchOptions }, use) => {
      await use({ ...launchOptions, args: launchOptions.args?.filter((arg) => arg !== "--enable-unsafe-webgpu") });
    },
    { scope: "worker" },
  ],
});

withoutWebGPU("asking for webgpu where there is none falls back to webgl with a notice", async ({ page }) => {
  const problems = await openConformance(page, "backend=webgpu");
  const hasAdapter = await page.evaluate(async () => Boolean(await navigator.gpu?.requestAdapter()));
  test.skip(hasAdapter, "this browser has WebGPU even without --enable-unsafe-webgpu");
  await expect(page.getByTestId("backend-notice")).toContainText(
    "webgpu is not available here, so the engine runs on webgl (webgpu: navigator.gpu.requestAdapter() returned no adapter",
  );
  await expect(page.getByTestId("backend")).toHaveText("webgl");
  // The menu keeps what was asked for, and says that it is not what runs.
  await expect(page.getByTestId("backend-select").locator("option:checked")).toHaveText(
    "webgpu (not running: webgl runs)",
  );
  expect(problems).toEqual([]);
});
