import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { enterApp } from "./shell-support.ts";

const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const notification = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });
const roleList = (page: Page) => page.getByRole("navigation", { name: "Roller" });
const roleButton = (page: Page, name: string) => roleList(page).getByRole("button", { name: new RegExp(`^${name}`) });
const cell = (page: Page, module: string, action: string) => page.getByRole("combobox", { name: `${module}: ${action}` });

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

async function open(page: Page, path: string, title: string) {
  await page.goto(path);
  await expect(h1(page)).toHaveText(title);
}

test.beforeEach(async ({ page }) => {
  await enterApp(page, "admin@demo.test");
});

test("an admin creates a role, changes its matrix, finds it after a reload and deletes it", async ({ page }) => {
  await open(page, "/admin/roles", "Roller ve Yetkiler");
  const suffix = randomUUID().slice(0, 8);
  const key = `e2e_${suffix}`;
  const name = `E2E Rol ${suffix}`;

  await page.getByRole("button", { name: "Yeni rol" }).click();
  const dialog = page.getByRole("dialog", { name: "Yeni rol" });
  const keyInput = dialog.getByRole("textbox", { name: "Rol anahtarı" });
  await keyInput.fill("Bad Key");
  await dialog.getByRole("textbox", { name: "Rol adı" }).fill(name);
  await dialog.getByRole("button", { name: "Rol oluştur" }).click();
  await expect(dialog.getByText("Rol anahtarı küçük harfle başlamalı")).toBeVisible();
  // A key in use would overwrite that role: refused before the server.
  await keyInput.fill("sales");
  await dialog.getByRole("button", { name: "Rol oluştur" }).click();
  await expect(dialog.getByText("Bu anahtarla bir rol zaten var.")).toBeVisible();
  await keyInput.fill(key);
  await dialog.getByRole("button", { name: "Rol oluştur" }).click();
  await expect(dialog).toBeHidden();
  await expect(notification(page, `${name} rolü oluşturuldu.`)).toBeVisible();

  // The new role is selected, with nothing allowed yet.
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  await expect(cell(page, "Müşteriler", "Görüntüleme")).toHaveValue("none");
  await cell(page, "Müşteriler", "Görüntüleme").selectOption({ label: "Tümü" });
  await cell(page, "Fırsatlar", "Düzenleme").selectOption({ label: "Kendi kayıtları" });
  await page.getByRole("button", { name: "Kaydet", exact: true }).click();
  await expect(notification(page, `${name} rolü kaydedildi.`)).toBeVisible();

  await page.reload();
  await roleButton(page, name).click();
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  await expect(cell(page, "Müşteriler", "Görüntüleme")).toHaveValue("all");
  await expect(cell(page, "Fırsatlar", "Düzenleme")).toHaveValue("own");
  await expect(cell(page, "Görevler", "Silme")).toHaveValue("none");

  await page.getByRole("button", { name: "Rolü sil" }).click();
  const confirm = page.getByRole("dialog", { name: "Rolü sil" });
  await expect(confirm.getByText(`${name} rolü silinecek. Onaylıyor musunuz?`)).toBeVisible();
  await confirm.getByRole("button", { name: "Evet, sil" }).click();
  await expect(confirm).toBeHidden();
  await expect(notification(page, `${name} rolü silindi.`)).toBeVisible();
  await expect(roleButton(page, name)).toHaveCount(0);
});

test("the admin role is read-only and a role with members cannot be deleted", async ({ page }) => {
  await open(page, "/admin/roles", "Roller ve Yetkiler");
  await roleButton(page, "Yönetici").click();
  await expect(page.getByText("Yönetici rolü her bölümde tüm kayıtlar üzerinde her işlemi yapabilir")).toBeVisible();
  await expect(cell(page, "Görevler", "İçe aktarma")).toHaveValue("all");
  await expect(cell(page, "Görevler", "İçe aktarma")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Rolü sil" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Kaydet", exact: true })).toHaveCount(0);

  // A demo member holds the sales role.
  await roleButton(page, "Satış Temsilcisi").click();
  await page.getByRole("button", { name: "Rolü sil" }).click();
  const confirm = page.getByRole("dialog", { name: "Rolü sil" });
  await confirm.getByRole("button", { name: "Evet, sil" }).click();
  await expect(confirm.getByText(/Bu rolde hâlâ \d+ üye var\./)).toBeVisible();
  await confirm.getByRole("button", { name: "Vazgeç" }).click();
  await expect(roleButton(page, "Satış Temsilcisi")).toBeVisible();
});

test("an admin changes the KDV rate and finds it after a reload", async ({ page }) => {
  await open(page, "/admin/general-settings", "Genel Ayarlar");
  const vat = page.getByRole("textbox", { name: "Varsayılan KDV oranı" });
  await expect(vat).toHaveValue("20 %");
  await expect(page.getByRole("textbox", { name: "Şirket adı" })).toHaveValue("Demo Ticaret A.Ş.");

  await vat.fill("150");
  await page.getByRole("button", { name: "Kaydet", exact: true }).click();
  await expect(page.getByText("KDV oranı 0 ile 100 arasında olmalı.")).toBeVisible();

  await vat.fill("18");
  await page.getByRole("button", { name: "Kaydet", exact: true }).click();
  await expect(notification(page, "Ayarlar kaydedildi.")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Varsayılan KDV oranı" })).toHaveValue("18 %");

  // Put the seed's rate back for the other tests.
  await page.getByRole("textbox", { name: "Varsayılan KDV oranı" }).fill("20");
  await page.getByRole("button", { name: "Kaydet", exact: true }).click();
  await expect(notification(page, "Ayarlar kaydedildi.")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Varsayılan KDV oranı" })).toHaveValue("20 %");
});

test("an admin uploads a logo that the menu then shows, after an SVG is refused, and removes it", async ({ page }) => {
  await open(page, "/admin/general-settings", "Genel Ayarlar");
  const fileInput = page.locator('input[type="file"]');
  const sidebarLogo = page.getByRole("navigation", { name: "Ana menü" }).locator("img");
  await expect(page.getByText("Henüz logo yüklenmedi.")).toBeVisible();

  await fileInput.setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from("<svg/>") });
  await expect(page.getByRole("alert").filter({ hasText: "Logo PNG, JPEG veya WebP biçiminde olmalı." })).toBeVisible();

  // A 1×1 PNG.
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
  await fileInput.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png });
  await expect(notification(page, "Logo kaydedildi.")).toBeVisible();
  await expect(page.getByRole("img", { name: "Demo Ticaret A.Ş. logosu" })).toBeVisible();
  await expect(sidebarLogo).toHaveAttribute("src", /^data:image\/png;base64,iVBOR/);
  await page.reload();
  await expect(sidebarLogo).toBeVisible();

  await page.getByRole("button", { name: "Logoyu kaldır" }).click();
  await expect(notification(page, "Logo kaldırıldı.")).toBeVisible();
  await expect(page.getByText("Henüz logo yüklenmedi.")).toBeVisible();
  await expect(sidebarLogo).toHaveCount(0);
});

test("a pipeline without a won stage is refused before it is sent", async ({ page }) => {
  await open(page, "/admin/operations-settings", "Operasyon Ayarları");
  const outcome = page.getByRole("combobox", { name: "5. aşamanın sonucu" });
  await expect(page.getByRole("textbox", { name: "5. aşamanın anahtarı" })).toHaveValue("won");
  await expect(outcome).toHaveValue("won");

  await outcome.selectOption({ label: "Açık" });
  await page.getByRole("button", { name: "Kaydet", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "En az bir aşamanın sonucu Kazanıldı olmalı." })).toBeVisible();
  await expect(notification(page, "Ayarlar kaydedildi.")).toHaveCount(0);

  // Nothing was saved.
  await page.reload();
  await expect(page.getByRole("combobox", { name: "5. aşamanın sonucu" })).toHaveValue("won");
});

test("the roles and settings pages have no serious or critical accessibility violations", async ({ page }) => {
  // Three pages and four axe runs.
  test.setTimeout(60_000);
  await open(page, "/admin/roles", "Roller ve Yetkiler");
  await expect(cell(page, "Müşteriler", "Görüntüleme")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await open(page, "/admin/general-settings", "Genel Ayarlar");
  await expect(page.getByRole("textbox", { name: "Şirket adı" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await open(page, "/admin/operations-settings", "Operasyon Ayarları");
  await expect(page.getByRole("textbox", { name: "1. aşamanın adı" })).toBeVisible();
  // With a pipeline error shown too.
  await page.getByRole("button", { name: "1. aşamayı kaldır" }).click();
  await page.getByRole("combobox", { name: "4. aşamanın sonucu" }).selectOption({ label: "Açık" });
  await page.getByRole("button", { name: "Kaydet", exact: true }).click();
  await expect(page.getByText("En az bir aşamanın sonucu Kazanıldı olmalı.")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
