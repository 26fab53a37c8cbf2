import { expect, type Page } from "@playwright/test";
import { storageKeys } from "../src/lib/browser-storage.ts";

/** Seeded demo accounts (all share one password). */
export const demoPassword = "Demo.1234";

export { storageKeys };

/** Opens the login page, fills in and submits its form (Turkish labels, the default language). */
export async function signIn(page: Page, email: string, password = demoPassword) {
  await page.goto("/login");
  await fillSignIn(page, email, password);
}

/** Fills in and submits the login form on the page shown. */
export async function fillSignIn(page: Page, email: string, password = demoPassword) {
  await page.getByRole("textbox", { name: "E-posta" }).fill(email);
  await page.getByRole("textbox", { name: "Şifre", exact: true }).fill(password);
  await page.getByRole("button", { name: "Giriş yap" }).click();
}

export const homeHeading = (page: Page) => page.getByRole("heading", { level: 1, name: /^Hoş geldiniz, / });
export const termsCheckbox = (page: Page) =>
  page.getByRole("checkbox", { name: "Kullanım koşullarını okudum ve kabul ediyorum." });

/** Accepts the terms on /terms (the first sign-in on a browser is sent there). */
export async function acceptTerms(page: Page) {
  await expect(page).toHaveURL(/\/terms$/);
  await termsCheckbox(page).check();
  await page.getByRole("button", { name: "Kabul et ve devam et" }).click();
}

/**
 * Signs in with a one-organization account and waits for the home page, accepting the terms
 * if this browser has not yet.
 */
export async function signInAndWaitForHome(page: Page, email: string, password = demoPassword) {
  await signIn(page, email, password);
  await expect(homeHeading(page).or(termsCheckbox(page)).first()).toBeVisible();
  if (await termsCheckbox(page).isVisible()) await acceptTerms(page);
  await expect(page).toHaveURL(/\/$/);
  await expect(homeHeading(page)).toBeVisible();
}

/** Reads a JSON value the app keeps in localStorage (null when absent). */
export async function readStored<T = unknown>(page: Page, key: string): Promise<T | null> {
  return page.evaluate((storageKey) => {
    const raw = localStorage.getItem(storageKey);
    return raw === null ? null : (JSON.parse(raw) as T);
  }, key);
}

/** Writes a JSON value into the app's localStorage. */
export async function writeStored(page: Page, key: string, value: unknown) {
  await page.evaluate(([storageKey, json]) => localStorage.setItem(storageKey, json), [key, JSON.stringify(value)] as const);
}
