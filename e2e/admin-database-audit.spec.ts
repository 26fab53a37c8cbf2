import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { createMember } from "../tests/support/accounts.ts";
import { privilegedRpc, signedInClient } from "../tests/support/clients.ts";
import { enterApp } from "./shell-support.ts";

const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const sidebar = (page: Page) => page.getByRole("navigation", { name: "Ana menü" });
const auditTable = (page: Page) => page.getByRole("table", { name: "Kayıtlar" });
const auditRow = (page: Page, text: string) => auditTable(page).getByRole("row").filter({ hasText: text });
const demoName = "Demo Ticaret A.Ş.";
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
  await enterApp(page, "admin@demo.test");
  await page.goto("/admin/database");
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

test("the audit log lists the admin's lock and unlock of a user", async ({ page, baseURL }) => {
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

  const locked = auditRow(page, "Kullanıcı kilitlendi").filter({ hasText: member.id });
  const unlocked = auditRow(page, "Kullanıcının kilidi açıldı").filter({ hasText: member.id });
  await expect(locked).toHaveCount(1);
  await expect(unlocked).toHaveCount(1);
  await expect(locked).toContainText("Ayşe Yılmaz");
  await expect(unlocked).toContainText("Ayşe Yılmaz");
  // Newest first: the unlock stands above the lock.
  const rows = await auditTable(page).getByRole("row").allTextContents();
  const index = (text: string) => rows.findIndex((row) => row.includes(text) && row.includes(member.id));
  expect(index("Kullanıcının kilidi açıldı")).toBeLessThan(index("Kullanıcı kilitlendi"));
  expect(await seriousViolations(page)).toEqual([]);
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
  await expect(auditRow(page, "Süper yönetici bu şirkete geçti").first()).toContainText("Süper Yönetici");
  expect(await seriousViolations(page)).toEqual([]);

  // The binding is on the server: a reload stays in the new organization.
  await page.reload();
  await expect(sidebar(page).getByText(to)).toBeVisible();
});

test("a plain admin cannot open the switcher", async ({ page }) => {
  await enterApp(page, "admin@demo.test");
  await page.goto("/admin/super-admin-switcher");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("alert").filter({ hasText: "yalnızca süper yöneticiler" })).toBeVisible();
  await expect(sidebar(page).getByRole("link", { name: "Süper Yönetici Geçişi" })).toHaveCount(0);
});
