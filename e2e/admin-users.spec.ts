import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { createMember } from "../tests/support/accounts.ts";
import { enterAppAt } from "./shell-support.ts";

const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const usersTable = (page: Page) => page.getByRole("table", { name: "Kullanıcı listesi" });
const rowOf = (page: Page, email: string) => usersTable(page).getByRole("row").filter({ hasText: email });
const notification = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });

async function openUsers(page: Page) {
  await enterAppAt(page, "/admin/users", "admin@demo.test");
  await expect(h1(page)).toHaveText("Kullanıcılar");
  await expect(usersTable(page)).toBeVisible();
}

/** Narrows the list to one address (the search waits for typing to pause). */
async function search(page: Page, email: string) {
  await page.getByRole("searchbox", { name: "Ara" }).fill(email);
  await expect(page.getByText("Toplam 1 kullanıcı")).toBeVisible();
  await expect(rowOf(page, email)).toBeVisible();
}

async function rowAction(page: Page, email: string, action: string) {
  await rowOf(page, email).getByRole("button", { name: / için işlemler$/ }).click();
  await page.getByRole("menuitem", { name: action }).click();
}

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

test("an admin creates a user, meeting each validation message first, and finds them in the list", async ({ page }) => {
  await openUsers(page);
  // The seeded members are listed with their role in the organization.
  await expect(rowOf(page, "satis@demo.test")).toContainText("Mehmet Demir");

  await page.getByRole("button", { name: "Yeni kullanıcı" }).click();
  const dialog = page.getByRole("dialog", { name: "Yeni kullanıcı" });
  const email = dialog.getByRole("textbox", { name: "E-posta" });
  const password = dialog.getByRole("textbox", { name: "Şifre", exact: true });
  const submit = dialog.getByRole("button", { name: "Kullanıcı oluştur" });

  // Checked in the browser, with the server's messages.
  await email.fill("not-an-email");
  await password.fill("12345");
  await submit.click();
  await expect(dialog.getByText("Geçerli bir email adresi girin")).toBeVisible();
  await expect(dialog.getByText("Şifre en az 6 karakter olmalı")).toBeVisible();
  await expect(email).toHaveAttribute("aria-invalid", "true");

  // Refused by the server, shown under the email field.
  await email.fill("satis@demo.test");
  await password.fill("Test.5678");
  await submit.click();
  await expect(dialog.getByText("Bu email adresi zaten kullanımda")).toBeVisible();
  await expect(dialog.getByText("Şifre en az 6 karakter olmalı")).toHaveCount(0);

  const created = `e2e-${randomUUID().slice(0, 8)}@test.example`;
  await email.fill(`  ${created.toUpperCase()} `);
  await dialog.getByRole("textbox", { name: "Ad", exact: true }).fill("Elif");
  await dialog.getByRole("textbox", { name: "Soyad" }).fill("Şahin");
  await dialog.getByRole("combobox", { name: "Rol" }).selectOption({ label: "Satış Temsilcisi" });
  await submit.click();
  await expect(dialog).toBeHidden();
  await expect(notification(page, `${created} kullanıcısı oluşturuldu.`)).toBeVisible();

  await search(page, created);
  const row = rowOf(page, created);
  await expect(row).toContainText("Elif Şahin");
  await expect(row).toContainText("Satış Temsilcisi");
  await expect(row).toContainText("Aktif");
  await expect(row).toContainText("Hiç giriş yapmadı");
  // The role filter narrows the list too.
  await page.getByRole("combobox", { name: "Rol" }).selectOption({ label: "İzleyici" });
  await expect(page.getByText("Bu ölçütlere uyan kullanıcı yok.")).toBeVisible();
});

test("an admin locks and unlocks a user, and the status badge follows", async ({ page, baseURL }) => {
  const member = await createMember(baseURL!);
  await openUsers(page);
  await search(page, member.email);
  const row = rowOf(page, member.email);
  await expect(row).toContainText("Aktif");

  await rowAction(page, member.email, "Kilitle");
  await expect(notification(page, "Kullanıcı kilitlendi.")).toBeVisible();
  await expect(row).toContainText("Kilitli");
  await expect(row).toContainText("Yönetici tarafından");
  await expect(row).toContainText("tarihine kadar");

  // The status filter finds them among the locked.
  await page.getByRole("combobox", { name: "Durum" }).selectOption({ label: "Kilitli" });
  await expect(row).toBeVisible();
  await page.getByRole("combobox", { name: "Durum" }).selectOption({ label: "Tüm durumlar" });

  await rowAction(page, member.email, "Kilidi aç");
  await expect(notification(page, "Kullanıcının kilidi açıldı.")).toBeVisible();
  await expect(row).toContainText("Aktif");
  await expect(row).not.toContainText("Kilitli");
});

test("an admin transfers a user's records with the spec's defaults preselected", async ({ page, baseURL }) => {
  const member = await createMember(baseURL!);
  await openUsers(page);
  await search(page, member.email);
  await rowAction(page, member.email, "Kayıtları aktar");

  const dialog = page.getByRole("dialog", { name: "Kayıtları aktar" });
  // Analysed first: what the user owns, per kind.
  await expect(dialog.getByRole("table", { name: "Kullanıcının kayıtları" })).toBeVisible();
  await expect(dialog.getByText("Toplam 0 kayıt")).toBeVisible();

  const checkbox = (name: string) => dialog.getByRole("checkbox", { name });
  await expect(checkbox("Fırsatlar")).toBeChecked();
  await expect(checkbox("Müşteriler ve kişiler")).toBeChecked();
  await expect(checkbox("Görevler")).toBeChecked();
  await expect(checkbox("Sözleşmeler")).not.toBeChecked();
  await expect(checkbox("Teklifler")).not.toBeChecked();
  await expect(checkbox("Belge şablonları")).not.toBeChecked();
  expect(await seriousViolations(page)).toEqual([]);

  const submit = dialog.getByRole("button", { name: "Aktar", exact: true });
  await expect(submit).toBeDisabled();
  await dialog.getByRole("combobox", { name: "Kayıtları alacak kullanıcı" }).click();
  // The user themselves is not offered.
  await expect(page.getByRole("option", { name: new RegExp(member.email) })).toHaveCount(0);
  await page.getByRole("option", { name: "Mehmet Demir (satis@demo.test)" }).click();

  await submit.click();
  await expect(dialog.getByText("Seçilen kayıtlar Mehmet Demir kullanıcısına aktarılacak. Onaylıyor musunuz?")).toBeVisible();
  await dialog.getByRole("button", { name: "Evet, aktar" }).click();
  await expect(dialog).toBeHidden();
  await expect(notification(page, "Kayıtlar aktarıldı (0 kayıt).")).toBeVisible();
});

test("a plain user cannot open the users page: the no-access page says why and leads home", async ({ page }) => {
  await enterAppAt(page, "/admin/users", "satis@demo.test");
  await expect(page.getByRole("heading", { level: 1, name: "Bu sayfaya erişiminiz yok" })).toBeVisible();
  await expect(page.getByText("Bu sayfayı yalnızca yöneticiler açabilir.")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(usersTable(page)).toHaveCount(0);
  await page.getByRole("link", { name: "Ana Sayfaya Dön" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the users page and its create form with errors have no serious or critical accessibility violations", async ({ page }) => {
  await openUsers(page);
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole("button", { name: "Yeni kullanıcı" }).click();
  const dialog = page.getByRole("dialog", { name: "Yeni kullanıcı" });
  await dialog.getByRole("button", { name: "Kullanıcı oluştur" }).click();
  await expect(dialog.getByText("Geçerli bir email adresi girin")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
