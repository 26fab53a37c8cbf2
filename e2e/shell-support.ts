import { expect, type Page } from "@playwright/test";
import { acceptTerms, demoPassword, fillSignIn, signIn, termsCheckbox } from "./support.ts";

/**
 * Signs in and goes on into the main layout: accepts the terms if this browser has not yet,
 * and picks the named organization (else the first) if the account has several.
 */
export async function enterApp(page: Page, email: string, password = demoPassword, organization?: string) {
  await signIn(page, email, password);
  await continueIntoApp(page, organization);
}

/**
 * Opens a signed-in page by its address, as someone following a link would: the app asks
 * them to sign in first (terms and organization as enterApp) and then shows that page, with
 * no stop at the home page on the way.
 */
export async function enterAppAt(page: Page, path: string, email: string, password = demoPassword, organization?: string) {
  await page.goto(path);
  await expect(page).toHaveURL(/\/login$/);
  await fillSignIn(page, email, password);
  await continueIntoApp(page, organization);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === path);
}

/** After the login form: through the terms and the organization choice into the main layout. */
async function continueIntoApp(page: Page, organization: string | undefined) {
  const layout = page.locator("#main-content");
  const terms = termsCheckbox(page);
  const organizations = page.getByRole("radiogroup", { name: "Şirket" }).getByRole("radio");
  for (let step = 0; step < 3; step++) {
    await expect(layout.or(terms).or(organizations).first()).toBeVisible();
    if (await layout.isVisible()) return;
    if (await terms.isVisible()) {
      await acceptTerms(page);
      await expect(terms).toBeHidden();
    } else {
      await (organization ? page.getByRole("radiogroup", { name: "Şirket" }).getByRole("radio", { name: organization }) : organizations.first()).check();
      await page.getByRole("button", { name: "Bu şirketle devam et" }).click();
      await expect(organizations.first()).toBeHidden();
    }
  }
  await expect(layout).toBeVisible();
}

/** Opens the user menu at the foot of the sidebar. */
export async function openUserMenu(page: Page) {
  await page.getByRole("button", { name: /^(Kullanıcı menüsü|User menu) / }).click();
  await expect(page.getByRole("menu")).toBeVisible();
}

/** Whether the page scrolls sideways (it must not, down to a 390 px phone). */
export function scrollsSideways(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}
