/**
 * The session's life in the browser (spec sections 3, 4 and 9): sign-out, the 24-hour limit,
 * a 401, an invalid refresh token, and the start-up limit. Exact timings are unit-tested with
 * fake timers (src/features/auth/session/session-controller.test.ts); here each end is brought
 * about deterministically (stored sign-in time moved back, refresh token broken, 401 answered).
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { homeHeading, readStored, signInAndWaitForHome, storageKeys, writeStored } from "./support.ts";

const dayMs = 24 * 60 * 60 * 1000;

interface StoredAuthSession {
  access_token: string;
  refresh_token: string;
  expires_at: number;
}

async function signOutThroughTheMenu(page: Page) {
  await page.getByRole("button", { name: /^Kullanıcı menüsü/ }).click();
  await page.getByRole("menuitem", { name: "Çıkış yap" }).click();
}

async function expectSignedOutOnLogin(page: Page, message?: string) {
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("button", { name: "Giriş yap" })).toBeVisible();
  if (message) await expect(page.getByRole("alert")).toHaveText(message);
  // The login page may show a moment before the sign-out has cleared the browser's copy: wait for it.
  await expect.poll(async () => [
    await readStored(page, storageKeys.auth),
    await readStored(page, storageKeys.currentOrganization),
    await readStored(page, storageKeys.signIn),
  ]).toEqual([null, null, null]);
}

test("logging out clears the session and goes to the login page", async ({ page }) => {
  await signInAndWaitForHome(page, "admin@demo.test");
  expect(await readStored(page, storageKeys.auth)).not.toBeNull();
  await signOutThroughTheMenu(page);
  await expectSignedOutOnLogin(page);
  // No message for a sign-out the person chose.
  await expect(page.getByRole("alert")).toHaveCount(0);
  // The terms acceptance stays with the browser.
  expect(await readStored(page, storageKeys.termsAcceptedEmails)).toEqual(["admin@demo.test"]);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
});

test("a sign-in in another tab takes the login page open here into the app too", async ({ page, context }) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Giriş yap" })).toBeVisible();
  // This browser accepted the terms before: the sign-in goes straight home in both tabs.
  await writeStored(page, storageKeys.termsAcceptedEmails, ["admin@demo.test"]);
  const other = await context.newPage();
  try {
    await signInAndWaitForHome(other, "admin@demo.test");
    // This tab's form was never used (Auth was not loaded here): the stored session brings it.
    await expect(page).toHaveURL(/\/$/);
    await expect(homeHeading(page)).toBeVisible();
  } finally {
    await other.close();
  }
});

test("a session older than 24 hours is ended", async ({ page }) => {
  await signInAndWaitForHome(page, "satis@demo.test");
  const record = await readStored<{ userId: string; signedInAt: number }>(page, storageKeys.signIn);
  expect(record?.signedInAt).toBeGreaterThan(Date.now() - 60_000);
  await writeStored(page, storageKeys.signIn, { ...record, signedInAt: Date.now() - dayMs - 60_000 });
  await page.reload();
  await expectSignedOutOnLogin(page, "Oturum süreniz (24 saat) doldu. Güvenliğiniz için lütfen tekrar giriş yapın.");
  // The message is readable (contrast) like the rest of the login page.
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")).toEqual([]);
});

test("a session just under 24 hours old is kept", async ({ page }) => {
  await signInAndWaitForHome(page, "satis@demo.test");
  const record = await readStored<{ userId: string; signedInAt: number }>(page, storageKeys.signIn);
  await writeStored(page, storageKeys.signIn, { ...record, signedInAt: Date.now() - dayMs + 10 * 60_000 });
  await page.reload();
  await expect(homeHeading(page)).toBeVisible();
});

test("an invalid refresh token forces logout", async ({ page }) => {
  await signInAndWaitForHome(page, "satis@demo.test");
  const session = await readStored<StoredAuthSession>(page, storageKeys.auth);
  // An access token that has run out, and a refresh token Auth does not know, stored as the
  // reloaded page starts, before the app: the page still open must not see them (a late call
  // of its dashboard would refresh, fail and sign out before the reload, and the reload would
  // forget why: the reason lives in memory).
  const broken = { ...session, expires_at: Math.floor(Date.now() / 1000) - 60, refresh_token: "not-a-refresh-token" };
  await page.addInitScript(([key, json]) => localStorage.setItem(key, json), [storageKeys.auth, JSON.stringify(broken)] as const);
  await page.reload();
  await expectSignedOutOnLogin(page, "Oturumunuz sona erdi. Lütfen tekrar giriş yapın.");
});

test("a 401 from the API forces logout", async ({ page }) => {
  await signInAndWaitForHome(page, "satis@demo.test");
  // The home page still loads after its heading shows (its charts mount late and ask again);
  // a 401 answered to one of those calls would sign out before the reload, and the reload
  // would forget why (the reason lives in memory). So only the reloaded page gets the 401.
  let reloaded = false;
  page.on("request", (request) => {
    if (request.isNavigationRequest()) reloaded = true;
  });
  await page.route("**/rest/v1/rpc/get_current_user_context", (route) =>
    reloaded
      ? route.fulfill({ status: 401, contentType: "application/json", body: JSON.stringify({ message: "JWT expired" }) })
      : route.continue(),
  );
  await page.reload();
  await expectSignedOutOnLogin(page, "Oturumunuz artık geçerli değil. Lütfen tekrar giriş yapın.");
  await page.unroute("**/rest/v1/rpc/get_current_user_context");
  // The next sign-in works as usual.
  await signInAndWaitForHome(page, "satis@demo.test");
});

test("a session Auth no longer answers for gives up after 8 seconds and continues signed out", async ({ page }) => {
  await signInAndWaitForHome(page, "satis@demo.test");
  const session = await readStored<StoredAuthSession>(page, storageKeys.auth);
  // The stored access token has run out, so start-up must refresh it, and Auth never answers.
  // The route goes first: the page still open would otherwise notice the expiry and refresh
  // (successfully) before it, and the reload would find a fresh session.
  await page.route("**/auth/v1/token?grant_type=refresh_token", () => undefined);
  await writeStored(page, storageKeys.auth, { ...session, expires_at: Math.floor(Date.now() / 1000) - 60 });
  const started = Date.now();
  await page.reload();
  await expect(page.getByText("Yükleniyor...").first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 20_000 });
  expect(Date.now() - started).toBeGreaterThanOrEqual(7_500);
  await expect(page.getByRole("button", { name: "Giriş yap" })).toBeVisible();
});
