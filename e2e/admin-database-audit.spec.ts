import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { createMember } from "../tests/support/accounts.ts";
import { privilegedRpc, signedInClient } from "../tests/support/clients.ts";
import { enterApp, enterAppAt } from "./shell-support.ts";

const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const sidebar = (page: Page) => page.getByRole("navigation", { name: "Ana menü" });
const auditTable = (page: Page) => page.getByRole("table", { name: "Kayıtlar" });
const auditRow = (page: Page, text: string) => auditTable(page).getByRole("row").filter({ hasText: text });
const demoName = "Demo Ticaret A.Ş.";
const uuidPattern = /[0-9a-f]{8}-[0-9a-f]{4}-/;
const acmeName = "Acme Sanayi Ltd.";

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

test("an admin sees the organization's tables, up to date", async ({ page, baseURL }) => {
  // The first sign-in of a fresh stack is slow; warm it up outside the browser.
  const warm = await signedInClient(baseURL!, "admin@demo.test");
  await warm.client.auth.signOut({ scope: "local" });
  await enterAppAt(page, "/admin/database", "admin@demo.test");
  await expect(h1(page)).toHaveText("Veritabanı");
  await expect(page.getByText("Güncel", { exact: true })).toBeVisible();
  const tables = page.getByRole("table", { name: "Tablolar" });
  await expect(tables.getByRole("row").filter({ has: page.getByRole("cell") })).toHaveCount(23);
  await expect(tables.getByRole("cell", { name: "customers", exact: true })).toBeVisible();
  await expect(tables.getByRole("cell", { name: "document_templates", exact: true })).toBeVisible();
  await expect(tables.getByRole("cell", { name: "field_history", exact: true })).toBeVisible();
  await expect(page.getByText("Tablo sayısı: 23")).toBeVisible();
  // Up to date: nothing to provision.
  await expect(page.getByRole("button", { name: /Eksik tabloları oluştur|Tabloları güncelle/ })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
});

test("the audit log lists the admin's lock and unlock of a user, by name, and filters them", async ({ page, baseURL }) => {
  // A member made, locked and unlocked, then the page and its filters: a longer journey.
  test.slow();
  const member = await createMember(baseURL!);
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  expect(await privilegedRpc(client, "lock_user_secure", { p_user_id: member.id })).toMatchObject({ success: true });
  expect(await privilegedRpc(client, "unlock_user_secure", { p_user_id: member.id })).toMatchObject({ success: true });
  await client.auth.signOut({ scope: "local" });

  await enterApp(page, "admin@demo.test");
  await sidebar(page).getByRole("button", { name: "Yönetim Sayfaları" }).click();
  await sidebar(page).getByRole("link", { name: "Denetim Kaydı" }).click();
  await expect(page).toHaveURL(/\/admin\/audit-log$/);
  await expect(h1(page)).toHaveText("Denetim Kaydı");

  const locked = auditRow(page, "Ayşe Yılmaz kullanıcının hesabını kilitledi").filter({ hasText: member.email });
  const unlocked = auditRow(page, "Ayşe Yılmaz kullanıcının hesap kilidini açtı").filter({ hasText: member.email });
  await expect(locked).toHaveCount(1);
  await expect(unlocked).toHaveCount(1);
  // The target by name, never by id.
  await expect(locked).toContainText("Deniz Arslan");
  await expect(unlocked).toContainText("Kullanıcı");
  // Newest first: the unlock stands above the lock.
  const rows = await auditTable(page).getByRole("row").allTextContents();
  const index = (text: string) => rows.findIndex((row) => row.includes(text) && row.includes(member.email));
  expect(index("hesap kilidini açtı")).toBeLessThan(index("hesabını kilitledi"));
  // No id anywhere on the page.
  expect(await page.locator("main").innerText()).not.toMatch(uuidPattern);
  expect(await seriousViolations(page)).toEqual([]);

  // Filters, on the server: the action (in words), the member, the dates.
  await page.getByRole("combobox", { name: "İşlem" }).click();
  await page.getByRole("option", { name: "Hesap kilitleme" }).click();
  await expect(locked).toHaveCount(1);
  await expect(unlocked).toHaveCount(0);
  await expect(auditTable(page).getByRole("row").filter({ hasText: "kilidini açtı" })).toHaveCount(0);
  await page.getByRole("combobox", { name: "Yapan" }).fill("Ayşe");
  await page.getByRole("option", { name: "Ayşe Yılmaz" }).click();
  await expect(locked).toHaveCount(1);
  const tomorrow = new Date(Date.now() + 86_400_000);
  const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, "0")}-${String(tomorrow.getDate()).padStart(2, "0")}`;
  await page.getByLabel("Başlangıç tarihi").fill(day);
  await expect(page.getByText("Bu filtrelere uyan kayıt yok.")).toBeVisible();
  await page.getByRole("button", { name: "Filtreleri temizle" }).click();
  await expect(unlocked).toHaveCount(1);
});

test("the audit log, a record's timeline and the home's activity name records and people, never ids", async ({ page, baseURL }) => {
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const name = `Etkinlik Müşterisi ${Date.now()}`;
  const customer = (await client.rpc("create_customer", { p_values: { name } })).data as { record: { id: string } };
  const deal = (await client.rpc("create_deal", { p_values: { title: `Etkinlik fırsatı ${Date.now()}` } })).data as {
    record: { id: string; updated_at: string };
  };
  const moved = await client.rpc("update_deal", {
    p_id: deal.record.id,
    p_values: { customer_id: customer.record.id },
    p_updated_at: deal.record.updated_at,
  });
  expect(moved.data).toMatchObject({ success: true });

  // What the test made goes again, whether it passed or not (other journeys count the demo's customers).
  try {
    await enterApp(page, "admin@demo.test");
    // Home: the latest activity on my records, by name, with a link to the record.
    const activity = page.getByRole("list", { name: "Kayıtlarımdaki son hareketler" });
    await expect(activity.getByRole("link", { name }).first()).toBeVisible();
    await expect(activity).toContainText("Ayşe Yılmaz kaydı oluşturdu");
    expect(await activity.innerText()).not.toMatch(uuidPattern);

    // The deal's timeline: the link change names the customer.
    await page.goto(`/deals/${deal.record.id}`);
    await page.getByRole("tab", { name: "Notlar ve geçmiş" }).click();
    const timeline = page.getByRole("tabpanel", { name: "Notlar ve geçmiş" });
    await expect(timeline.getByText(`Ayşe Yılmaz, Müşteri alanını değiştirdi: boş → ${name}`)).toBeVisible();
    await expect(timeline.getByText("Ayşe Yılmaz kaydı oluşturdu")).toBeVisible();
    expect(await timeline.innerText()).not.toMatch(uuidPattern);

    // The audit log: the customer by name, linked to its page.
    await page.goto("/admin/audit-log");
    await expect(auditTable(page).getByRole("link", { name }).first()).toBeVisible();
    expect(await page.locator("main").innerText()).not.toMatch(uuidPattern);
  } finally {
    expect((await client.rpc("delete_deals", { p_ids: [deal.record.id] })).data).toMatchObject({ success: true });
    expect((await client.rpc("delete_customers", { p_ids: [customer.record.id] })).data).toMatchObject({ success: true });
    await client.auth.signOut({ scope: "local" });
  }
});

test("a super admin switches organization, and both the sidebar and the audit log show it", async ({ page }) => {
  await enterApp(page, "super@demo.test");
  const startsInDemo = await sidebar(page).getByText(demoName).isVisible();
  const [from, to] = startsInDemo ? [demoName, acmeName] : [acmeName, demoName];
  await expect(sidebar(page).getByText(from)).toBeVisible();

  await page.goto("/admin/super-admin-switcher");
  await expect(h1(page)).toHaveText("Süper Yönetici Geçişi");
  const list = page.getByRole("list", { name: "Etkin şirketler" });
  await expect(list.getByRole("listitem").filter({ hasText: from })).toContainText("Şu anki şirket");
  await expect(list.getByRole("button", { name: `Bu şirkete geç: ${from}` })).toHaveCount(0);

  // Search narrows the list.
  await page.getByRole("searchbox", { name: "Şirket ara" }).fill("no-such-organization");
  await expect(page.getByText("Aramanızla eşleşen şirket yok.")).toBeVisible();
  await page.getByRole("searchbox", { name: "Şirket ara" }).fill("");
  expect(await seriousViolations(page)).toEqual([]);

  await list.getByRole("button", { name: `Bu şirkete geç: ${to}` }).click();
  const dialog = page.getByRole("dialog", { name: "Şirket değiştirilsin mi?" });
  await expect(dialog).toContainText("denetim kaydına yazılır");
  await dialog.getByRole("button", { name: "Geçişi onayla" }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(sidebar(page).getByText(to)).toBeVisible();
  await expect(sidebar(page).getByText(from)).toHaveCount(0);

  await page.goto("/admin/audit-log");
  await expect(h1(page)).toHaveText("Denetim Kaydı");
  await expect(auditRow(page, "bu şirkete geçti").first()).toContainText("Süper Yönetici");
  expect(await seriousViolations(page)).toEqual([]);

  // The binding is on the server: a reload stays in the new organization.
  await page.reload();
  await expect(sidebar(page).getByText(to)).toBeVisible();
});

test("a plain admin cannot open the switcher", async ({ page }) => {
  await enterAppAt(page, "/admin/super-admin-switcher", "admin@demo.test");
  // The no-access page, where it was asked for: why, and the way home.
  await expect(page).toHaveURL(/\/admin\/super-admin-switcher$/);
  await expect(page.getByRole("heading", { level: 1, name: "Bu sayfaya erişiminiz yok" })).toBeVisible();
  await expect(page.getByText("Bu sayfayı yalnızca süper yöneticiler açabilir.")).toBeVisible();
  await expect(sidebar(page).getByRole("link", { name: "Süper Yönetici Geçişi" })).toHaveCount(0);
});
