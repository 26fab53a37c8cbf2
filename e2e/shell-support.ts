import { expect, type Page } from "@playwright/test";
import { acceptTerms, demoPassword, signIn, termsCheckbox } from "./support.ts";

/**
 * Signs in and goes on into the main layout: accepts the terms if this browser has not yet,
 * and picks the named organization (else the first) if the account has several.
 */
export async function enterApp(page: Page, email: string, password = demoPassword, organization?: string) {
  await signIn(page, email, password);
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
