import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { enterAppAt } from "./shell-support.ts";

const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const quoteTable = (page: Page) => page.getByRole("table", { name: "Teklif şablonları" });
const rowOf = (page: Page, name: string) => quoteTable(page).getByRole("row").filter({ hasText: name });
const notification = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

test("an admin writes a quote template with a placeholder, previews it safely, makes it default and deletes it", async ({ page }) => {
  // No template body may ever open a dialog (alert, confirm, prompt).
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  await enterAppAt(page, "/admin/document-templates", "admin@demo.test");
  await expect(h1(page)).toHaveText("Belge Şablonları");
  await expect(page.getByRole("tab", { name: "Teklif şablonları" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tab", { name: "Sözleşme şablonları" })).toBeVisible();
  await expect(page.getByText("Yükleniyor...")).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  const name = `E2E Teklif ${randomUUID().slice(0, 8)}`;
  await page.getByRole("button", { name: "Yeni şablon" }).click();
  const editor = page.getByRole("dialog", { name: "Yeni şablon" });
  await editor.getByRole("textbox", { name: "Şablon adı" }).fill(name);
  await expect(editor.getByRole("combobox", { name: "Tür" })).toHaveValue("quote");
  const body = editor.getByRole("textbox", { name: "Şablon metni" });
  await body.fill("Sayın ,\nToplam: ");
  // Put the cursor after "Sayın " and insert the customer's name there with a click.
  await body.evaluate((element: HTMLTextAreaElement) => element.setSelectionRange(6, 6));
  await editor.getByRole("button", { name: "{{customer.name}}" }).click();
  await expect(body).toHaveValue("Sayın {{customer.name}},\nToplam: ");
  await body.press("Control+End");
  await editor.getByRole("button", { name: "{{totals.total}}" }).click();
  await expect(body).toHaveValue("Sayın {{customer.name}},\nToplam: {{totals.total}}");

  const preview = editor.getByRole("region", { name: "Önizleme" });
  await expect(preview).toContainText("Sayın Anadolu Yapı Malzemeleri Ltd. Şti.,");
  await expect(preview).toContainText("Toplam: ₺69.000,00");
  await expect(preview).not.toContainText("{{customer.name}}");
  // The sender is the organization's own, from its general settings, not a sample company.
  await body.fill("Sayın {{customer.name}},\nToplam: {{totals.total}}\n{{organization.legal_name}} VKN {{organization.tax_number}}");
  await expect(preview).toContainText("Demo Ticaret Anonim Şirketi VKN 2910045871");
  expect(await seriousViolations(page)).toEqual([]);

  await editor.getByRole("button", { name: "Kaydet" }).click();
  await expect(editor).toBeHidden();
  await expect(notification(page, `"${name}" şablonu oluşturuldu.`)).toBeVisible();
  const row = rowOf(page, name);
  await expect(row).toBeVisible();
  await expect(row.getByText("Varsayılan", { exact: true })).toHaveCount(0);

  // Made the default of its kind: the badge appears.
  await row.getByRole("button", { name: "Varsayılan yap" }).click();
  await expect(notification(page, `"${name}" artık varsayılan şablon.`)).toBeVisible();
  await expect(row.getByText("Varsayılan", { exact: true })).toBeVisible();
  await expect(row.getByRole("button", { name: "Varsayılan yap" })).toHaveCount(0);

  // Markup and expressions in a body are shown as text, never run.
  await row.getByRole("button", { name: "Düzenle" }).click();
  const edit = page.getByRole("dialog", { name: "Şablonu düzenle" });
  await expect(edit.getByRole("switch", { name: "Bu türün varsayılan şablonu" })).toBeChecked();
  const hostile = "<script>alert(1)</script>\n<img src=x onerror=alert(2)>\n{{constructor.constructor('alert(3)')()}}";
  await edit.getByRole("textbox", { name: "Şablon metni" }).fill(hostile);
  const editPreview = edit.getByRole("region", { name: "Önizleme" });
  await expect(editPreview).toContainText("<script>alert(1)</script>");
  await expect(editPreview).toContainText("<img src=x onerror=alert(2)>");
  await expect(editPreview.locator("mark")).toHaveText("{{constructor.constructor('alert(3)')()}}");
  await expect(editPreview.locator("script, img")).toHaveCount(0);
  await edit.getByRole("button", { name: "Kaydet" }).click();
  await expect(edit).toBeHidden();
  await expect(notification(page, `"${name}" şablonu kaydedildi.`)).toBeVisible();

  // Reopened, the saved body still previews as text.
  await row.getByRole("button", { name: "Düzenle" }).click();
  await expect(edit.getByRole("region", { name: "Önizleme" })).toContainText("<script>alert(1)</script>");
  await edit.getByRole("button", { name: "Vazgeç" }).click();
  await expect(edit).toBeHidden();

  await row.getByRole("button", { name: "Sil" }).click();
  const confirm = page.getByRole("dialog", { name: "Şablonu sil" });
  await expect(confirm).toContainText(`"${name}" şablonu silinsin mi?`);
  await confirm.getByRole("button", { name: "Sil" }).click();
  await expect(confirm).toBeHidden();
  await expect(notification(page, `"${name}" şablonu silindi.`)).toBeVisible();
  await expect(rowOf(page, name)).toHaveCount(0);

  expect(dialogs).toEqual([]);
});
