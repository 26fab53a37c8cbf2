import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { enterApp, enterAppAt, openUserMenu } from "./shell-support.ts";

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  // Report rule ids and offending elements so a failure says what to fix.
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

const h1 = (page: Page) => page.getByRole("heading", { level: 1 });

test("the login page has no serious or critical accessibility violations", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Giriş yap" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("the login page with errors has no serious or critical accessibility violations", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Giriş yap" }).click();
  await expect(page.getByText("Şifre gerekli.")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("the home page has no serious or critical accessibility violations", async ({ page }) => {
  await enterApp(page, "admin@demo.test");
  await expect(h1(page)).toHaveText("Hoş geldiniz, Ayşe Yılmaz");
  expect(await seriousViolations(page)).toEqual([]);
});

test("the home page with the user menu open, in the light and the dark theme, has none either", async ({ page }) => {
  await enterApp(page, "admin@demo.test");
  await openUserMenu(page);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("menuitemradio", { name: "Koyu" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  // A radio item keeps the menu open, so that the choice shows: clicking the menu's button
  // again would start closing it while the check below runs.
  await expect(page.getByRole("menuitemradio", { name: "Koyu" })).toHaveAttribute("aria-checked", "true");
  await expect(page.getByRole("menu")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("a module page has no serious or critical accessibility violations", async ({ page }) => {
  await enterAppAt(page, "/customers", "satis@demo.test");
  await expect(h1(page)).toHaveText("Müşteriler");
  await expect(page.getByRole("table", { name: "Müşteri listesi" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("the profile page has no serious or critical accessibility violations", async ({ page }) => {
  await enterAppAt(page, "/profile", "satis@demo.test");
  await expect(h1(page)).toHaveText("Profilim");
  await expect(page.getByRole("table", { name: "Son Giriş Denemeleri" })).toBeVisible();
  // With validation messages showing too.
  await page.getByRole("button", { name: "Şifreyi değiştir" }).click();
  await expect(page.getByText("Mevcut şifrenizi girin.")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("admin pages have no serious or critical accessibility violations", async ({ page }) => {
  await enterApp(page, "admin@demo.test");
  for (const [path, title] of [
    ["/admin", "Yönetim Paneli"],
    ["/admin/users", "Kullanıcılar"],
  ]) {
    await page.goto(path);
    await expect(h1(page)).toHaveText(title);
    expect(await seriousViolations(page), path).toEqual([]);
  }
});

test("the no-access page of an admin path has no serious or critical accessibility violations", async ({ page }) => {
  await enterAppAt(page, "/admin/users", "satis@demo.test");
  await expect(page.getByRole("heading", { level: 1, name: "Bu sayfaya erişiminiz yok" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test.describe("on a 390 px wide phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the layout with the menu open has no serious or critical accessibility violations", async ({ page }) => {
    await enterApp(page, "admin@demo.test");
    await page.getByRole("button", { name: "Menüyü aç" }).click();
    await expect(page.getByRole("navigation", { name: "Ana menü" })).not.toHaveAttribute("inert");
    expect(await seriousViolations(page)).toEqual([]);
  });
});
