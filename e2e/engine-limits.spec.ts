import { expect, type Page, test } from "@playwright/test";
import { loadCaseFile, openConformance } from "./conformance-page";

/**
 * A discounted case with discount 1 and small integer rewards: every return is an exact float32
 * sum whatever the summation order, so `expected` and `chunked_float32` are the suffix sums.
 */
function integerCase(name: string, T: number, chunkSize: number) {
  const rewards = Array.from({ length: T }, (_, t) => ((t * 7) % 5) - 2);
  const returns = new Array<number>(T);
  for (let t = T - 1, sum = 0; t >= 0; t--) returns[t] = sum += rewards[t];
  return {
    name,
    kind: "discounted",
    note: "",
    seed: 0,
    max_abs_err_float32: 0,
    shape: [1, T],
    params: { discount: 1, chunk_size: chunkSize },
    inputs: { rewards },
    expected: { returns },
    chunked_float32: { returns },
  };
}

/** A 16384-token chunk over 16384 tokens (a 1 GiB kernel), and maybe a small case that must still pass. */
function caseFile(withSmallCase: boolean): string {
  const big = integerCase("chunk_16384_T16384", 16384, 16384);
  const cases = withSmallCase ? [big, integerCase("small_T8_C4", 8, 4)] : [big];
  return JSON.stringify({ meta: { schema_version: 1 }, cases });
}

async function runOn(page: Page, backend: string, withSmallCase: boolean): Promise<string[]> {
  const problems = await openConformance(page, `backend=${backend}`);
  await loadCaseFile(page, "chunk_16384.json", caseFile(withSmallCase));
  // A refusal is immediate: running the 1 GiB kernel took 34 s on webgpu (and returned zeros).
  const summary = withSmallCase ? "1 passed, 1 failed" : "0 passed, 1 failed";
  await expect(page.getByTestId("conformance-summary")).toHaveText(summary, { timeout: 20_000 });
  await expect(page.getByTestId("backend")).toHaveText(backend);
  return problems;
}

const refusal = "chunk size 16384 needs a 16384×16384 float32 discount kernel of 1 GiB";

test("webgpu refuses a 1 GiB discount kernel with its buffer limit, instead of returning zeros", async ({ page }) => {
  // The small case after it shows that a refusal leaves the worker able to run the next case.
  const problems = await runOn(page, "webgpu", true);
  const row = page.getByTestId("verdict-row").filter({ hasText: "chunk_16384_T16384" });
  await expect(row).toHaveAttribute("data-state", "fail");
  await expect(row).toContainText(refusal);
  await expect(row).toContainText(/webgpu on this device allows at most [\d.]+ [MG]iB per buffer \(maxBufferSize/);
  await expect(row).toContainText(/so the chunk size can be at most \d+ for rows of 16384 tokens/);
  await expect(row).not.toContainText("worst output");
  await expect(page.getByTestId("verdict-row").filter({ hasText: "small_T8_C4" })).toHaveAttribute(
    "data-state",
    "pass",
  );
  expect(problems).toEqual([]);
});

test("webgl refuses a kernel beyond its largest texture, instead of failing to compile a shader", async ({ page }) => {
  const problems = await runOn(page, "webgl", false);
  const row = page.getByTestId("verdict-row").filter({ hasText: "chunk_16384_T16384" });
  await expect(row).toHaveAttribute("data-state", "fail");
  await expect(row).toContainText(refusal);
  await expect(row).toContainText(/webgl here holds at most [\d,]+ float32 values \([\d.]+ [MG]iB\) in one tensor/);
  await expect(row).toContainText(/so the chunk size can be at most \d+ for rows of 16384 tokens/);
  await expect(row).not.toContainText("compile");
  expect(problems).toEqual([]);
});
