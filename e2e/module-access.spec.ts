import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { testKeys } from "../tests/support/keys.ts";
import { createMember } from "../tests/support/accounts.ts";
import { enterApp, enterAppAt } from "./shell-support.ts";
import { storageKeys } from "./support.ts";

const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const sidebar = (page: Page) => page.getByRole("navigation", { name: "Ana menü" });
const cell = (page: Page, module: string, action: string) => page.getByRole("combobox", { name: `${module}: ${action}` });
const notification = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });

/** Calls an RPC from inside the page with the signed-in session's own token. */
async function callRpcAsPage(page: Page, name: string) {
  return page.evaluate(
    async ([authKey, apikey, rpcName]) => {
      const session = JSON.parse(localStorage.getItem(authKey) ?? "{}") as { access_token?: string };
      const response = await fetch(`/rest/v1/rpc/${rpcName}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", apikey, Authorization: `Bearer ${session.access_token}` },
        body: "{}",
      });
      return response.json() as Promise<unknown>;
    },
    [storageKeys.auth, testKeys.publishableKey, name] as const,
  );
}

test("a role change hides a module from a plain user and makes its RPCs refuse", async ({ page, browser, baseURL }) => {
  // The admin makes a role that may only see its own customers.
  await enterAppAt(page, "/admin/roles", "admin@demo.test");
  await expect(h1(page)).toHaveText("Roller ve Yetkiler");
  const suffix = randomUUID().slice(0, 8);
  const roleKey = `stajyer_${suffix}`;
  const roleName = `Stajyer ${suffix}`;
  await page.getByRole("button", { name: "Yeni rol" }).click();
  const dialog = page.getByRole("dialog", { name: "Yeni rol" });
  await dialog.getByRole("textbox", { name: "Rol anahtarı" }).fill(roleKey);
  await dialog.getByRole("textbox", { name: "Rol adı" }).fill(roleName);
  await dialog.getByRole("button", { name: "Rol oluştur" }).click();
  await expect(dialog).toBeHidden();
  await cell(page, "Müşteriler", "Görüntüleme").selectOption({ label: "Kendi kayıtları" });
  await page.getByRole("button", { name: "Kaydet" }).click();
  const saved = notification(page, `${roleName} rolü kaydedildi.`);
  await expect(saved).toBeVisible();
  // Out of the way of the save button, which the admin presses again below.
  await saved.getByRole("button").click();
  await expect(saved).toBeHidden();

  // A member with that role sees the customers module and nothing else.
  const member = await createMember(baseURL!, { role: roleKey });
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await enterApp(memberPage, member.email, member.password);
  await expect(sidebar(memberPage).getByRole("link", { name: "Müşteriler" })).toBeVisible();
  await expect(sidebar(memberPage).getByRole("link", { name: "Fırsatlar" })).toHaveCount(0);
  await expect(sidebar(memberPage).getByRole("link", { name: "İçe/Dışa Aktarma" })).toHaveCount(0);
  await sidebar(memberPage).getByRole("link", { name: "Müşteriler" }).click();
  await expect(h1(memberPage)).toHaveText("Müşteriler");
  // The organization has customers, none of them the new member's.
  await expect(memberPage.getByRole("heading", { level: 2, name: "Henüz müşteri yok" })).toBeVisible();
  expect(await callRpcAsPage(memberPage, "list_customers")).toMatchObject({ success: true, scope: "own", total: 0 });
  // A module the role cannot see says so at its address.
  await memberPage.goto("/deals");
  await expect(h1(memberPage)).toHaveText("Fırsatlar modülüne erişiminiz yok");

  // The admin takes the module away.
  await cell(page, "Müşteriler", "Görüntüleme").selectOption({ label: "Yok" });
  await page.getByRole("button", { name: "Kaydet" }).click();
  await expect(notification(page, `${roleName} rolü kaydedildi.`)).toBeVisible();

  // The member's next page no longer offers it, its address refuses, and so does the database.
  await sidebar(memberPage).getByRole("link", { name: "Ana Sayfa" }).click();
  await expect(sidebar(memberPage).getByRole("link", { name: "Ana Sayfa" })).toHaveAttribute("aria-current", "page");
  await expect(sidebar(memberPage).getByRole("link", { name: "Müşteriler" })).toHaveCount(0);
  await memberPage.goto("/customers");
  await expect(h1(memberPage)).toHaveText("Müşteriler modülüne erişiminiz yok");
  expect(await callRpcAsPage(memberPage, "list_customers")).toMatchObject({ success: false, code: "permission_denied" });
  await memberContext.close();
});

/** coklu@ works in two organizations; in demo they are Kullanıcı (user): sees every record, changes their own. */
const enterDemoAsUser = (page: Page) => enterApp(page, "coklu@demo.test", undefined, "Demo Ticaret A.Ş.");

test("a plain user without import or export rights has no import/export page; an admin has", async ({ page, browser }) => {
  await enterDemoAsUser(page);
  await expect(sidebar(page).getByRole("link", { name: "Müşteriler" })).toBeVisible();
  await expect(sidebar(page).getByRole("link", { name: "İçe/Dışa Aktarma" })).toHaveCount(0);
  await page.goto("/import-export");
  await expect(h1(page)).toHaveText("İçe/Dışa Aktarma modülüne erişiminiz yok");
  await page.getByRole("link", { name: "Ana Sayfaya Dön" }).click();
  await expect(page).toHaveURL(/\/$/);

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await enterApp(adminPage, "admin@demo.test");
  await sidebar(adminPage).getByRole("link", { name: "İçe/Dışa Aktarma" }).click();
  await expect(h1(adminPage)).toHaveText("İçe/Dışa Aktarma");
  await adminContext.close();
});

test("a user lists, searches and sorts the organization's customers", async ({ page }) => {
  await enterDemoAsUser(page);
  await sidebar(page).getByRole("link", { name: "Müşteriler" }).click();
  const table = page.getByRole("table", { name: "Müşteri listesi" });
  // The first cell of a row selects it; the name follows.
  const firstCell = table.getByRole("row").nth(1).getByRole("cell").nth(1);
  await expect(page.getByText(/^Toplam 200 müşteri$/)).toBeVisible();
  // By name, Turkish letters beside their Latin ones (ğ as g): Ağaoğlu Enerji, Ağaoğlu Kimya, Ağaoğlu Tekstil, Ahmet ...
  await expect(table.getByRole("row").nth(3).getByRole("cell").nth(1)).toHaveText("Ağaoğlu Tekstil A.Ş.");
  // The date added is a column to choose.
  await page.getByRole("button", { name: "Sütunlar" }).click();
  await page.getByRole("checkbox", { name: "Eklenme tarihi" }).check();
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Eklenme tarihi" }).click();
  await expect(firstCell).toHaveText("Işık Yazılım A.Ş.");
  await page.getByRole("searchbox", { name: "Ara" }).fill("ISIK");
  await expect(page.getByText(/^Toplam 1 müşteri$/)).toBeVisible();
  await expect(table.getByRole("row").nth(1)).toContainText("Mehmet Demir");
  await page.getByRole("searchbox", { name: "Ara" }).fill("yok böyle bir firma");
  await expect(page.getByText("Aramanıza uyan müşteri yok.")).toBeVisible();
});

test("a customer list that cannot load says so and loads on retry", async ({ page }) => {
  await enterApp(page, "satis@demo.test");
  await page.route("**/rest/v1/rpc/list_customers", (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: '{"message":"unavailable"}' }),
  );
  await page.goto("/customers");
  const failure = page.getByRole("alert").filter({ hasText: "Müşteriler yüklenemedi." });
  await expect(failure).toBeVisible();
  await expect(failure).not.toContainText("unavailable");
  await page.unroute("**/rest/v1/rpc/list_customers");
  await failure.getByRole("button", { name: "Tekrar dene" }).click();
  await expect(page.getByRole("table", { name: "Müşteri listesi" })).toBeVisible();
  await expect(failure).toBeHidden();
});

test("a user may not delete or edit another owner's customer: the controls say why and the database refuses", async ({ page }) => {
  await enterDemoAsUser(page);
  await sidebar(page).getByRole("link", { name: "Müşteriler" }).click();
  const table = page.getByRole("table", { name: "Müşteri listesi" });
  await expect(page.getByText(/^Toplam 200 müşteri$/)).toBeVisible();
  // Two customers of other owners (coklu@ is Zeynep Kaya): the bulk bar offers no delete for them.
  const others = table.locator("tbody tr").filter({ hasNotText: "Zeynep Kaya" });
  const names = [(await others.nth(0).getByRole("cell").nth(1).innerText()).trim(), (await others.nth(1).getByRole("cell").nth(1).innerText()).trim()];
  for (const name of names) await table.getByRole("checkbox", { name: `${name} kaydını seç` }).check();
  const bulk = page.getByRole("region", { name: "Toplu işlemler" });
  await expect(bulk.getByText("Seçilen kayıtlardan 2 tanesi başka bir kullanıcıya ait", { exact: false })).toBeVisible();
  await expect(bulk.getByRole("button", { name: "Sil" })).toHaveAttribute("aria-disabled", "true");

  // The record's page: edit and delete disabled, with the reason.
  await table.getByRole("link", { name: names[0], exact: true }).click();
  await expect(h1(page)).toHaveText(names[0]);
  const actions = page.getByRole("group", { name: "Kayıt işlemleri" });
  await expect(actions.getByRole("button", { name: "Sil" })).toHaveAttribute("aria-disabled", "true");
  await expect(actions.getByRole("button", { name: "Düzenle" })).toHaveAttribute("aria-disabled", "true");
  await expect(page.getByText("Bu kayıt başka bir kullanıcıya ait", { exact: true })).toBeVisible();
  await actions.getByRole("button", { name: "Sil" }).click({ force: true });
  await expect(page.getByRole("dialog", { name: "Kayıt silinsin mi?" })).toHaveCount(0);

  // The database is the authority: the same delete, sent anyway, is refused with its code.
  const id = new URL(page.url()).pathname.split("/").pop()!;
  const answer = await page.evaluate(
    async ([authKey, apikey, recordId]) => {
      const session = JSON.parse(localStorage.getItem(authKey) ?? "{}") as { access_token?: string };
      const response = await fetch("/rest/v1/rpc/delete_customers", {
        method: "POST",
        headers: { "Content-Type": "application/json", apikey, Authorization: `Bearer ${session.access_token}` },
        body: JSON.stringify({ p_ids: [recordId] }),
      });
      return response.json() as Promise<unknown>;
    },
    [storageKeys.auth, testKeys.publishableKey, id] as const,
  );
  expect(answer).toMatchObject({ success: false, code: "not_record_owner", changed: 0, refused: [{ id, code: "not_record_owner" }] });
  await page.reload();
  await expect(h1(page)).toHaveText(names[0]);
});

test("a sales user sees only their own customers, and who opens /admin/users sees the no-access page and goes home from it", async ({ page }) => {
  // satis@ is Satış Temsilcisi in demo, with the role's defaults: they see only their own records.
  await enterApp(page, "satis@demo.test");
  await sidebar(page).getByRole("link", { name: "Müşteriler" }).click();
  const table = page.getByRole("table", { name: "Müşteri listesi" });
  // Their 67 of the demo's 200 (the seed's customers go round three owners), and the list says why.
  await expect(page.getByText("Toplam 67 müşteri · Rolünüz gereği yalnızca size ait kayıtlar listeleniyor.", { exact: true })).toBeVisible();
  await expect(table.locator("tbody tr").first()).toContainText("Mehmet Demir");
  await expect(table.locator("tbody tr").filter({ hasNotText: "Mehmet Demir" })).toHaveCount(0);
  await page.goto("/admin/users");
  await expect(h1(page)).toHaveText("Bu sayfaya erişiminiz yok");
  await expect(page.getByText("Bu sayfayı yalnızca yöneticiler açabilir.")).toBeVisible();
  await page.getByRole("link", { name: "Ana Sayfaya Dön" }).click();
  await expect(page).toHaveURL(/\/$/);
  // Satış Temsilcisi sees only their own records: the home figures say so.
  await expect(page.getByText("Kayıtlarınız").first()).toBeVisible();
});
