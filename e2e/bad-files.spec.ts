import { closeSync, ftruncateSync, mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { MAX_CASE_FILE_BYTES } from "../src/io/caseFile";
import { MAX_IMPORT_BYTES } from "../src/io/ioError";
import { writeNpy } from "../src/io/npyTestFile";
import { oneTokenCases } from "./conformance-page";
import { collectProblems } from "./pageProblems";

/**
 * Every view that takes files, fed the files a training run or a careless hand produces. Each must
 * be refused with a message that names the file and the place at fault; no page error; the result
 * shown before stays; nothing in a file name is ever read as HTML.
 */

/** A file the test writes itself: its name, its bytes, and what the message must say. */
interface BadFile {
  name: string;
  bytes: Buffer;
  message: RegExp;
}

const FULLY_MASKED = JSON.stringify({
  meta: { schema_version: 1 },
  cases: [
    {
      name: "masked_row",
      kind: "reinforce_pp",
      lengths: [2, 2],
      params: { kl_coef: 0.05, gamma: 1, chunk_size: 128 },
      inputs: {
        rewards: [1, 1],
        kl: [
          [0.1, 0.2],
          [0.3, 0.4],
        ],
        loss_masks: [
          [1, 1],
          [0, 0],
        ],
      },
      expected: {
        returns: [
          [1, 1],
          [0, 0],
        ],
        token_level_rewards: [
          [0, 1],
          [0, 0],
        ],
      },
      chunked_float32: {
        returns: [
          [1, 1],
          [0, 0],
        ],
        token_level_rewards: [
          [0, 1],
          [0, 0],
        ],
      },
    },
  ],
});

/** An XSS attempt in a name: were it ever inserted as HTML, the image's handler would set this flag. */
const HTML_NAME = `<img src=x onerror="window.__pwned=1">.json`;

const JSON_FILES: BadFile[] = [
  {
    name: "broken.json",
    bytes: Buffer.from('{"meta": {"schema_version": 1}, "cases": [{"na'),
    message: /^broken\.json: not valid JSON/,
  },
  {
    name: "wrong_schema.json",
    bytes: Buffer.from(
      JSON.stringify({ meta: { schema_version: 1 }, cases: [{ name: "x", kind: "policy_gradient" }] }),
    ),
    message:
      /wrong_schema\.json: not a valid case file\s+cases\[0\] \("x"\)\.kind: unsupported case kind "policy_gradient"/,
  },
  { name: "empty.json", bytes: Buffer.alloc(0), message: /^empty\.json: not valid JSON/ },
  {
    name: "latin1.json",
    bytes: Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]),
    message: /^latin1\.json: not valid UTF-8: invalid byte sequence at byte offset 2 /,
  },
  {
    name: HTML_NAME,
    bytes: Buffer.from("<html>"),
    message: /^<img src=x onerror="window\.__pwned=1">\.json: not valid JSON/,
  },
];

const NPY_HEADER_BROKEN = writeNpy([1, 2, 3], [3], { header: "{'descr': '<f4', 'fortran_order': False, }" });
const NPY_SHORT = writeNpy([1, 2, 3, 4, 5, 6], [2, 3]).subarray(0, -4);

const PLAYGROUND_FILES: BadFile[] = [
  ...JSON_FILES,
  {
    name: "text.csv",
    bytes: Buffer.from("1,2,3\n4,five,6\n"),
    message: /^text\.csv: line 2, column 2: "five" is not a number/,
  },
  { name: "empty.csv", bytes: Buffer.alloc(0), message: /^empty\.csv: has no rows of numbers/ },
  {
    name: "header.npy",
    bytes: Buffer.from(NPY_HEADER_BROKEN),
    message: /^header\.npy: header: field shape is missing or not a tuple/,
  },
  {
    name: "short.npy",
    bytes: Buffer.from(NPY_SHORT),
    // The data starts where the 24 bytes the shape needs would start, 4 bytes short of the end.
    message: new RegExp(
      `^short\\.npy: byte ${NPY_SHORT.length - 20}: shape \\(2, 3\\) of 4-byte floats needs 24 data bytes, the file has 20`,
    ),
  },
  { name: "empty.npy", bytes: Buffer.alloc(0), message: /^empty\.npy: byte 0: not a \.npy file/ },
  {
    name: "<b>bold</b>.csv",
    bytes: Buffer.from("x,<script>alert(1)</script>\n"),
    message: /^<b>bold<\/b>\.csv: line 1, column 1: "x" is not a number/,
  },
];

/** A file of `bytes` on disk that holds no data (sparse): the page must refuse it by its size, unread. */
function sparseFile(name: string, bytes: number): string {
  const path = join(mkdtempSync(join(tmpdir(), "scanlab-big-")), name);
  const fd = openSync(path, "w");
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return path;
}

async function expectNoHtmlFromNames(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.getByTestId("error-message").locator("img, b, script")).toHaveCount(0);
}

async function settledResult(page: Page): Promise<{ run: string | null; maxAbs: string | null }> {
  await expect(page.getByTestId("results")).toHaveAttribute("data-run", /^[1-9]\d*$/, { timeout: 60_000 });
  await expect(page.getByTestId("results")).toHaveAttribute("aria-busy", "false", { timeout: 60_000 });
  return {
    run: await page.getByTestId("results").getAttribute("data-run"),
    maxAbs: await page.getByTestId("max-abs-error").textContent(),
  };
}

/** One playground page for both playground tests (opening it and its first run cost seconds); in order. */
test.describe("playground", () => {
  test.describe.configure({ mode: "serial" });
  const playground = { page: undefined as unknown as Page, problems: [] as string[] };
  test.beforeAll(async ({ browser }) => {
    playground.page = await browser.newPage();
    playground.problems = collectProblems(playground.page);
    await playground.page.goto("/?backend=wasm");
  });
  test.afterAll(async () => {
    await playground.page?.close();
  });

  test("playground: every bad file is named and refused, and the result on screen stays", async () => {
    const { page, problems } = playground;
    const before = await settledResult(page);
    const input = page.getByTestId("case-file-input");
    for (const file of PLAYGROUND_FILES) {
      await input.setInputFiles({ name: file.name, mimeType: "application/octet-stream", buffer: file.bytes });
      await expect(page.getByTestId("error-message"), file.name).toHaveText(file.message);
      await expectNoHtmlFromNames(page);
      expect(await settledResult(page), file.name).toEqual(before);
    }
    await input.setInputFiles(sparseFile("huge.csv", MAX_IMPORT_BYTES + 1));
    await expect(page.getByTestId("error-message")).toHaveText(
      /^huge\.csv: the file is 64\.0 MiB, above the import limit of 64 MiB/,
    );
    expect(await settledResult(page)).toEqual(before);
    expect(problems).toEqual([]);
  });

  test("playground: a fully masked sequence is reported in slime's own words", async () => {
    const { page, problems } = playground;
    await settledResult(page);
    await page
      .getByTestId("case-file-input")
      .setInputFiles({ name: "masked.json", mimeType: "application/json", buffer: Buffer.from(FULLY_MASKED) });
    await expect(page.getByTestId("error-message")).toContainText("Sequence at index 1 is fully masked.", {
      timeout: 60_000,
    });
    expect(problems).toEqual([]);
  });
});

test("conformance: every bad file is named and refused, and the previous results stay", async ({ page }) => {
  const problems = collectProblems(page);
  await page.goto("/?view=conformance&backend=wasm");
  const input = page.getByTestId("case-file-input");
  await input.setInputFiles({ name: "good.json", mimeType: "application/json", buffer: Buffer.from(oneTokenCases(3)) });
  const summary = page.getByTestId("conformance-summary");
  await expect(summary).toHaveText("3 passed, 0 failed", { timeout: 60_000 });
  const files: BadFile[] = [
    ...JSON_FILES,
    { name: "text.csv", bytes: Buffer.from("1,2,3\n4,five,6\n"), message: /^text\.csv: not valid JSON/ },
    {
      name: "header.npy",
      bytes: Buffer.from(NPY_HEADER_BROKEN),
      message: /^header\.npy: not valid UTF-8: invalid byte sequence at byte offset 0 /,
    },
  ];
  for (const file of files) {
    await input.setInputFiles({ name: file.name, mimeType: "application/json", buffer: file.bytes });
    await expect(page.getByTestId("error-message"), file.name).toHaveText(file.message);
    await expectNoHtmlFromNames(page);
    await expect(summary, file.name).toHaveText("3 passed, 0 failed");
    await expect(page.getByTestId("case-file-name")).toHaveText("good.json");
  }
  await input.setInputFiles(sparseFile("huge.json", MAX_CASE_FILE_BYTES + 1));
  await expect(page.getByTestId("error-message")).toHaveText(/^huge\.json is 256\.0 MiB, above the 256 MiB limit/);
  await expect(summary).toHaveText("3 passed, 0 failed");
  // A fully masked sequence is a case, not a bad file: it runs and fails with slime's own error.
  await input.setInputFiles({ name: "masked.json", mimeType: "application/json", buffer: Buffer.from(FULLY_MASKED) });
  await expect(summary).toHaveText("0 passed, 1 failed", { timeout: 60_000 });
  await expect(page.getByTestId("verdict-row").first()).toContainText("Sequence at index 1 is fully masked.");
  expect(problems).toEqual([]);
});

test("player: a bad file is named and refused, and the replay on screen stays", async ({ page }) => {
  const problems = collectProblems(page);
  await page.goto("/?view=player&backend=cpu");
  await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ \d+$/, { timeout: 30_000 });
  const source = await page.getByTestId("player-source").textContent();
  const input = page.getByTestId("case-file-input");
  for (const file of JSON_FILES) {
    await input.setInputFiles({ name: file.name, mimeType: "application/json", buffer: file.bytes });
    await expect(page.getByTestId("error-message"), file.name).toHaveText(file.message);
    await expectNoHtmlFromNames(page);
    await expect(page.getByTestId("player-source")).toHaveText(source ?? "");
    await expect(page.getByTestId("player-position")).toHaveText(/^1 \/ \d+$/);
  }
  await input.setInputFiles(sparseFile("huge.json", MAX_CASE_FILE_BYTES + 1));
  await expect(page.getByTestId("error-message")).toHaveText(/^huge\.json is 256\.0 MiB, above the 256 MiB limit/);
  expect(problems).toEqual([]);
});
