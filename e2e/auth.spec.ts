import { expect, test } from "@playwright/test";
import { signIn, signInAndWaitForHome } from "./support.ts";

test("an unknown path redirects to the login page", async ({ page }) => {
  await page.goto("/no-such-page");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("button", { name: "Giriş Yap" })).toBeVisible();
});

test("the home page is behind the sign-in", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
});

test("an admin signs in and sees their name and organization", async ({ page }) => {
  await signInAndWaitForHome(page, "admin@demo.test");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hoş geldiniz, Ayşe Yılmaz");
  await expect(page.getByText("Demo Ticaret A.Ş.")).toBeVisible();
});

test("each user sees their own organization", async ({ page }) => {
  await signInAndWaitForHome(page, "admin@acme.test");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hoş geldiniz, John Smith");
  await expect(page.getByText("Acme Sanayi Ltd.")).toBeVisible();
  await expect(page.getByText("Demo Ticaret A.Ş.")).toHaveCount(0);
});

test("a wrong password shows a Turkish error and stays on the login page", async ({ page }) => {
  await signIn(page, "satis@demo.test", "wrong-password");
  await expect(page.getByRole("alert")).toHaveText("E-posta veya şifre hatalı.");
  await expect(page).toHaveURL(/\/login$/);
});

test("empty fields are reported without calling the server", async ({ page }) => {
  const authCalls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/auth/v1/token")) authCalls.push(request.url());
  });
  await page.goto("/login");
  await page.getByRole("button", { name: "Giriş Yap" }).click();
  await expect(page.getByText("E-posta adresi gerekli.")).toBeVisible();
  await expect(page.getByText("Şifre gerekli.")).toBeVisible();
  expect(authCalls).toEqual([]);
});

test("signing out returns to the login page and ends the session", async ({ page }) => {
  await signInAndWaitForHome(page, "admin@demo.test");
  await page.getByRole("button", { name: "Çıkış Yap" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
});

test("the session survives a reload", async ({ page }) => {
  await signInAndWaitForHome(page, "satis@demo.test");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hoş geldiniz, Mehmet Demir");
});

test("the interface switches to English", async ({ page }) => {
  await page.goto("/login");
  await page.getByText("English").click();
  await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

test.describe("on a 390 px wide phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("login and home fit the screen without horizontal scrolling", async ({ page }) => {
    const overflows = () => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    await page.goto("/login");
    await expect(page.getByRole("button", { name: "Giriş Yap" })).toBeVisible();
    expect(await overflows()).toBe(false);
    await signInAndWaitForHome(page, "admin@demo.test");
    await expect(page.getByText("Demo Ticaret A.Ş.")).toBeVisible();
    expect(await overflows()).toBe(false);
  });
});
