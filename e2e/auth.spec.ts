import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { testKeys } from "../tests/support/keys.ts";
import { createMember } from "../tests/support/accounts.ts";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import {
  acceptTerms,
  demoPassword,
  homeHeading,
  readStored,
  signIn,
  signInAndWaitForHome,
  storageKeys,
  termsCheckbox,
} from "./support.ts";

const demoOrganizationId = "0a000000-0000-4000-8000-000000000001";
const acmeOrganizationId = "0a000000-0000-4000-8000-000000000002";
const alert = (page: Page) => page.getByRole("alert");

test("an unknown path redirects to the login page", async ({ page }) => {
  await page.goto("/no-such-page");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("button", { name: "Giriş yap" })).toBeVisible();
});

test("the home page is behind the sign-in", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
});

test("a one-organization user signs in and lands home in their organization", async ({ page }) => {
  const visited: string[] = [];
  page.on("framenavigated", (frame) => visited.push(new URL(frame.url()).pathname));
  await signInAndWaitForHome(page, "admin@demo.test");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hoş geldiniz, Ayşe Yılmaz");
  await expect(page.getByText("Demo Ticaret A.Ş.").first()).toBeVisible();
  // The only organization was set without asking.
  expect(visited).not.toContain("/select-organization");
  expect(await readStored(page, storageKeys.currentOrganization)).toMatchObject({ slug: "demo", name: "Demo Ticaret A.Ş." });
  expect(await readStored(page, storageKeys.currentOrganizationId)).toBe(demoOrganizationId);
});

test("the sign-in calls prepare, Auth, bind and last-login, in that order", async ({ page }) => {
  const calls: string[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === "POST" && /\/(rest|auth)\/v1\//.test(path)) calls.push(path.replace(/^.*\/(rest|auth)\/v1\//, ""));
  });
  await signInAndWaitForHome(page, "admin@acme.test");
  expect(calls.slice(0, 4)).toEqual([
    "rpc/secure_login_prepare_auth",
    "token",
    "rpc/bind_session_organization",
    "rpc/update_user_last_login",
  ]);
});

test.describe("terms", () => {
  test("the first sign-in on a browser asks to accept the terms, records it, and does not ask again", async ({ page, browser, baseURL }) => {
    const { email, password } = await createMember(baseURL!);
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.getByRole("heading", { level: 1, name: "Kullanım Koşulları" })).toBeVisible();
    const accept = page.getByRole("button", { name: "Kabul et ve devam et" });
    await expect(accept).toBeDisabled();
    await acceptTerms(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(homeHeading(page)).toHaveText("Hoş geldiniz, Deniz Arslan");
    expect(await readStored(page, storageKeys.termsAcceptedEmails)).toEqual([email]);

    // Recorded server-side too.
    const { client } = await signedInClient(baseURL!, email, password);
    expect(((await rpc(client, "get_current_user_context")).user as { terms_accepted_at: string | null }).terms_accepted_at).not.toBeNull();
    // Only this client's session: a global sign-out would also end the page's, which then
    // signs out by itself at a moment of its own (the next step failed once that way).
    await client.auth.signOut({ scope: "local" });

    // The same browser does not ask again after signing out and in.
    await page.getByRole("button", { name: /^Kullanıcı menüsü/ }).click();
    await page.getByRole("menuitem", { name: "Çıkış yap" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, email, password);
    await expect(homeHeading(page)).toBeVisible();

    // Another browser asks (the acceptance is kept per browser and email).
    const otherBrowser = await browser.newContext();
    const other = await otherBrowser.newPage();
    await signIn(other, email, password);
    await expect(other).toHaveURL(/\/terms$/);
    await otherBrowser.close();
  });

  test("declining the terms signs out", async ({ page, baseURL }) => {
    const { email, password } = await createMember(baseURL!);
    await signIn(page, email, password);
    await expect(termsCheckbox(page)).toBeVisible();
    await page.getByRole("button", { name: "Kabul etmiyorum, çıkış yap" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("the terms page is public", async ({ page }) => {
    await page.goto("/terms");
    await expect(page.getByRole("heading", { level: 1, name: "Kullanım Koşulları" })).toBeVisible();
    await expect(termsCheckbox(page)).toHaveCount(0);
    await page.getByRole("link", { name: "Giriş sayfasına dön" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe("refusals", () => {
  test("a wrong password shows a Turkish error and stays on the login page", async ({ page }) => {
    await signIn(page, "satis@demo.test", "wrong-password");
    await expect(alert(page)).toHaveText("E-posta veya şifre hatalı.");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("five wrong passwords lock the account, and the message says for how many minutes", async ({ page, baseURL }) => {
    const { email, password } = await createMember(baseURL!);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await signIn(page, email, `Wrong.${attempt}`);
      await expect(alert(page)).toHaveText("E-posta veya şifre hatalı.");
    }
    await signIn(page, email, "Wrong.5");
    await expect(alert(page)).toHaveText(
      "Hesabınız çok sayıda hatalı deneme nedeniyle kilitlendi. 30 dakika sonra tekrar deneyin.",
    );
    // The right password meets the lock too.
    await signIn(page, email, password);
    await expect(alert(page)).toContainText("dakika sonra tekrar deneyin.");
    await expect(page).toHaveURL(/\/login$/);

    // In English when chosen, with the catalogue's words.
    await page.getByText("English").click();
    await page.getByRole("textbox", { name: "Email" }).fill(email);
    await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(alert(page)).toHaveText(/^Account is locked for (30|29) minutes after too many failed attempts\./);
  });

  test("empty fields are reported without calling the server", async ({ page }) => {
    const calls: string[] = [];
    page.on("request", (request) => {
      if (/\/(auth|rest)\/v1\//.test(request.url())) calls.push(request.url());
    });
    await page.goto("/login");
    await page.getByRole("button", { name: "Giriş yap" }).click();
    await expect(page.getByText("E-posta adresi gerekli.")).toBeVisible();
    await expect(page.getByText("Şifre gerekli.")).toBeVisible();
    expect(calls).toEqual([]);
  });

  test("an unreachable server gets a message, not a raw error", async ({ page }) => {
    await page.route("**/rest/v1/rpc/secure_login_prepare_auth", (route) => route.abort("connectionrefused"));
    await signIn(page, "satis@demo.test");
    await expect(alert(page)).toHaveText("Sunucuya ulaşılamadı. İnternet bağlantınızı kontrol edip tekrar deneyin.");
  });
});

test.describe("organizations", () => {
  test("a user of two organizations picks one, and cannot switch later", async ({ page }) => {
    await signIn(page, "coklu@demo.test");
    await expect(page).toHaveURL(/\/select-organization$/);
    const demo = page.getByRole("radio", { name: "Demo Ticaret A.Ş." });
    const acme = page.getByRole("radio", { name: "Acme Sanayi Ltd." });
    // The first available one (both memberships are equally old: by name) is offered first.
    await expect(acme).toBeChecked();
    await demo.check();
    await page.getByRole("button", { name: "Bu şirketle devam et" }).click();
    await acceptTerms(page);
    await expect(homeHeading(page)).toBeVisible();
    await expect(page.getByText("Demo Ticaret A.Ş.").first()).toBeVisible();
    expect(await readStored(page, storageKeys.currentOrganization)).toMatchObject({ slug: "demo" });

    // Later: the choice is final for this session.
    await page.goto("/select-organization");
    await expect(page.getByText("Güvenlik nedeniyle şirket değiştirme devre dışıdır. Lütfen doğru şirketle giriş yapın.")).toBeVisible();
    await expect(demo).toBeChecked();
    await expect(acme).toBeDisabled();
    await expect(page.getByRole("button", { name: "Bu şirketle devam et" })).toHaveCount(0);
    await page.getByRole("button", { name: "Devam et", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText("Demo Ticaret A.Ş.").first()).toBeVisible();

    // The database refuses the switch as well, whatever the page shows.
    const refusal = await page.evaluate(
      async ([authKey, apikey, otherId]) => {
        const session = JSON.parse(localStorage.getItem(authKey) ?? "{}") as { access_token?: string };
        const response = await fetch("/rest/v1/rpc/bind_session_organization", {
          method: "POST",
          headers: { "Content-Type": "application/json", apikey, Authorization: `Bearer ${session.access_token}` },
          body: JSON.stringify({ p_organization_id: otherId }),
        });
        return response.json() as Promise<unknown>;
      },
      [storageKeys.auth, testKeys.publishableKey, acmeOrganizationId] as const,
    );
    expect(refusal).toMatchObject({ success: false, code: "organization_switch_disabled" });

    // Signing in again is how to work in the other organization.
    await page.getByRole("button", { name: /^Kullanıcı menüsü/ }).click();
    await page.getByRole("menuitem", { name: "Çıkış yap" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, "coklu@demo.test");
    await expect(page).toHaveURL(/\/select-organization$/);
    await page.getByRole("button", { name: "Bu şirketle devam et" }).click();
    await expect(homeHeading(page)).toBeVisible();
    await expect(page.getByText("Acme Sanayi Ltd.").first()).toBeVisible();
  });

  test("the selection page is only for signed-in users", async ({ page }) => {
    await page.goto("/select-organization");
    await expect(page).toHaveURL(/\/login$/);
  });
});

test("the session survives a reload", async ({ page }) => {
  await signInAndWaitForHome(page, "satis@demo.test");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hoş geldiniz, Mehmet Demir");
});

test("the interface switches to English", async ({ page }) => {
  await page.goto("/login");
  await page.getByText("English").click();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

test("a signed-in user who opens /login goes on to the app", async ({ page }) => {
  await signInAndWaitForHome(page, "satis@demo.test", demoPassword);
  await page.goto("/login");
  await expect(page).toHaveURL(/\/$/);
  await expect(homeHeading(page)).toBeVisible();
});

test("the terms and organization pages have no serious or critical accessibility violations", async ({ page }) => {
  const seriousViolations = async () =>
    (await new AxeBuilder({ page }).analyze()).violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
  await signIn(page, "coklu@demo.test");
  await expect(page.getByRole("radiogroup", { name: "Şirket" })).toBeVisible();
  expect(await seriousViolations()).toEqual([]);
  await page.getByRole("button", { name: "Bu şirketle devam et" }).click();
  await expect(termsCheckbox(page)).toBeVisible();
  expect(await seriousViolations()).toEqual([]);
  await acceptTerms(page);
  await page.goto("/select-organization");
  await expect(page.getByText("Güvenlik nedeniyle şirket değiştirme devre dışıdır.", { exact: false })).toBeVisible();
  expect(await seriousViolations()).toEqual([]);
});
