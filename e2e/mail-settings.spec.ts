import { expect, test, type Page } from "@playwright/test";
import { caughtFor } from "./mail-support.ts";
import { enterAppAt } from "./shell-support.ts";

const mailSection = (page: Page) => page.getByRole("region", { name: "E-posta (SMTP)" });

test("an admin sends a test e-mail, enters a mail server, and is told in words why it cannot be reached", async ({ page }) => {
  await enterAppAt(page, "/admin/general-settings", "admin@demo.test");
  const section = mailSection(page);
  await expect(section.getByText("Şirketin kendi posta sunucusu girilmemiş")).toBeVisible();

  // Without settings of its own, the organization's mail goes through the installation's: here the stack's mail server.
  const before = (await caughtFor(page, "admin@demo.test")).length;
  await expect(section.getByRole("textbox", { name: "Deneme e-postasının gideceği adres" })).toHaveValue("admin@demo.test");
  await section.getByRole("button", { name: "Deneme e-postası gönder" }).click();
  await expect(section.getByText("Deneme e-postası admin@demo.test adresine gönderildi.")).toBeVisible();
  await expect.poll(async () => (await caughtFor(page, "admin@demo.test")).length).toBe(before + 1);
  const [message] = await caughtFor(page, "admin@demo.test");
  expect(message.subject).toBe("Satış CRM: deneme e-postası");
  expect(message.text).toContain("Demo Ticaret A.Ş.");

  // A server nobody listens on (port 1): saved with a password that is never shown again.
  await section.getByRole("textbox", { name: "Sunucu adresi" }).fill("127.0.0.1");
  await section.getByRole("textbox", { name: "Bağlantı noktası" }).fill("1");
  await section.getByRole("textbox", { name: "Kullanıcı adı" }).fill("satis@demo.test");
  await section.getByLabel("Şifre", { exact: true }).fill("Posta.Sifresi-1");
  await section.getByRole("textbox", { name: "Gönderen adresi" }).fill("satis@demo.test");
  await section.getByRole("button", { name: "E-posta Ayarlarını Kaydet" }).click();
  await expect(page.getByText("E-posta ayarları kaydedildi.")).toBeVisible();
  await expect(section.getByText("Kayıtlı bir şifre var; değiştirmek için yenisini yazın.")).toBeVisible();
  await expect(section.getByLabel("Şifre", { exact: true })).toHaveValue("");

  await section.getByRole("button", { name: "Deneme e-postası gönder" }).click();
  await expect(section.getByText("Posta sunucusuna ulaşılamadı: sunucu adresini, bağlantı noktasını ve güvenlik ayarını denetleyin.")).toBeVisible();

  // A bad sender address is told under its field, and nothing is saved.
  await section.getByRole("textbox", { name: "Gönderen adresi" }).fill("satis@");
  await section.getByRole("button", { name: "E-posta Ayarlarını Kaydet" }).click();
  await expect(section.getByText("Geçerli bir e-posta adresi girin.")).toBeVisible();

  await section.getByRole("button", { name: "Ayarları kaldır" }).click();
  await expect(page.getByText("E-posta ayarları kaldırıldı.")).toBeVisible();
  await expect(section.getByText("Şirketin kendi posta sunucusu girilmemiş")).toBeVisible();
});
