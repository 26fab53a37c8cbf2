import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signInAndWaitForHome } from "./support.ts";

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  // Report rule ids and offending elements so a failure says what to fix.
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

test("the login page has no serious or critical accessibility violations", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Giriş Yap" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("the login page with errors has no serious or critical accessibility violations", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Giriş Yap" }).click();
  await expect(page.getByText("Şifre gerekli.")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("the home page has no serious or critical accessibility violations", async ({ page }) => {
  await signInAndWaitForHome(page, "admin@demo.test");
  expect(await seriousViolations(page)).toEqual([]);
});
