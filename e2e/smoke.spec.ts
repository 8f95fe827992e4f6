import { expect, test } from "@playwright/test";

test("the page opens on the playground with its views in the top bar, without console errors", async ({ page }) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));

  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Scanlab");
  const views = page.getByRole("navigation", { name: "Views" });
  await expect(views.getByRole("link", { name: "Playground" })).toHaveAttribute("aria-current", "page");
  await views.getByRole("link", { name: "Conformance" }).click();
  await expect(page).toHaveURL(/view=conformance/);
  await expect(page.getByRole("link", { name: "Conformance" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("case-file-input")).toHaveCount(1);
  expect(problems).toEqual([]);
});
