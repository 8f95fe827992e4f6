import { expect, test } from "@playwright/test";

test("the page renders the product name without console errors", async ({ page }) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));

  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Scanlab");
  await expect(page.getByText("chunked discounted-return scan")).toBeVisible();
  expect(problems).toEqual([]);
});
