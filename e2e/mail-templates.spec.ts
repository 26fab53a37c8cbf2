import { expect, test, type Page } from "@playwright/test";
import { enterAppAt } from "./shell-support.ts";

const mailTable = (page: Page) => page.getByRole("table", { name: "E-posta şablonları" });
const quoteTurkishRow = (page: Page) => mailTable(page).getByRole("row").filter({ hasText: "Teklif" }).filter({ hasText: "Türkçe" });
const notification = (page: Page, text: string) => page.getByRole("alert").filter({ hasText: text });

test("an admin writes the Turkish quote e-mail's subject with a placeholder, sees it filled, saves it and puts it back", async ({ page }) => {
  await enterAppAt(page, "/admin/document-templates", "admin@demo.test");
  await expect(page.getByRole("heading", { level: 2, name: "E-posta şablonları" })).toBeVisible();
  await expect(mailTable(page).getByRole("row")).toHaveCount(11);
  await expect(quoteTurkishRow(page)).toContainText("Hazır metin");
  await expect(mailTable(page).getByRole("row", { name: /Bildirim özeti/ })).toHaveCount(2);

  await page.getByRole("button", { name: "Düzenle: Teklif (Türkçe)" }).click();
  const editor = page.getByRole("dialog", { name: "E-posta şablonu: Teklif (Türkçe)" });
  const subject = editor.getByRole("textbox", { name: "Konu" });
  await expect(subject).toHaveValue("{{quote.number}} numaralı teklifimiz – {{organization.name}}");
  const preview = editor.getByRole("region", { name: "Önizleme" });
  // The product's text, filled with the organization's name and the sample quote and sender.
  await expect(preview).toContainText("Konu: TKL-2026-00042 numaralı teklifimiz – Demo Ticaret");
  await expect(preview).toContainText("Sayın Zeynep Kaya,");
  await expect(preview).toContainText("Selim Satış");

  // A placeholder clicked goes where the cursor is in the subject; an unknown one is pointed out.
  await subject.fill("Teklifiniz hazır:  {{fatura.no}}");
  await subject.evaluate((element: HTMLInputElement) => element.setSelectionRange(18, 18));
  await editor.getByRole("group", { name: "Teklif" }).getByRole("button", { name: "{{quote.number}}" }).click();
  await expect(subject).toHaveValue("Teklifiniz hazır: {{quote.number}} {{fatura.no}}");
  await expect(preview).toContainText("Konu: Teklifiniz hazır: TKL-2026-00042 {{fatura.no}}");
  await expect(preview.getByTitle("Tanınmayan alan")).toHaveText("{{fatura.no}}");
  await subject.fill("Teklifiniz hazır: {{quote.number}}");
  await expect(preview.getByTitle("Tanınmayan alan")).toHaveCount(0);

  await editor.getByRole("button", { name: "Kaydet" }).click();
  await expect(editor).toBeHidden();
  await expect(notification(page, "Teklif (Türkçe) e-posta şablonu kaydedildi.")).toBeVisible();

  await page.reload();
  // Read again from the database after the reload (a loaded machine can take a while).
  await expect(quoteTurkishRow(page)).toContainText("Teklifiniz hazır: {{quote.number}}", { timeout: 30_000 });
  await expect(quoteTurkishRow(page)).toContainText("Özelleştirildi");
  await page.getByRole("button", { name: "Düzenle: Teklif (Türkçe)" }).click();
  await expect(editor.getByRole("textbox", { name: "Konu" })).toHaveValue("Teklifiniz hazır: {{quote.number}}");

  await editor.getByRole("button", { name: "Varsayılana dön" }).click();
  await expect(editor).toBeHidden();
  await expect(notification(page, "Teklif (Türkçe) e-posta şablonu hazır metne döndü.")).toBeVisible();
  await expect(quoteTurkishRow(page)).toContainText("{{quote.number}} numaralı teklifimiz");
  await expect(quoteTurkishRow(page)).toContainText("Hazır metin");
});

test("a sales user cannot open the templates page", async ({ page }) => {
  await enterAppAt(page, "/admin/document-templates", "satis@demo.test");
  await expect(page.getByRole("heading", { level: 1, name: "Bu sayfaya erişiminiz yok" })).toBeVisible();
  await expect(mailTable(page)).toHaveCount(0);
});
