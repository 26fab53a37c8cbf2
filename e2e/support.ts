import { expect, type Page } from "@playwright/test";

/** Seeded demo accounts (all share one password). */
export const demoPassword = "Demo.1234";

export async function signIn(page: Page, email: string, password = demoPassword) {
  await page.goto("/login");
  await page.getByRole("textbox", { name: "E-posta" }).fill(email);
  await page.getByRole("textbox", { name: "Şifre", exact: true }).fill(password);
  await page.getByRole("button", { name: "Giriş Yap" }).click();
}

export async function signInAndWaitForHome(page: Page, email: string) {
  await signIn(page, email);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: /^Hoş geldiniz, / })).toBeVisible();
}
