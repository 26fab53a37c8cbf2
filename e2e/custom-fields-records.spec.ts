/**
 * Custom fields in the records' lists, export, import and PDFs (issue 26, part 3), as an admin
 * does it: "Sektör kodu" (one choice of A, B, C) and "Bayi no" (a number) are added to the
 * customers in the admin console's "Özel Alanlar" section; a CSV whose headers are "Sektör Kodu"
 * and "Bayi No" fills them; the customer list shows them and filters by them; the view exported
 * to Excel has them as columns (the number a number); a quote PDF made from a template with
 * {{customer.cf_sektor_kodu}} prints the customer's option.
 *
 * Runs once the database part (custom columns in list_/export_records and the import RPCs) and
 * the admin page are merged: addCustomField follows that page's labels.
 */
import * as XLSX from "@e965/xlsx";
import { expect, test, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { enterApp } from "./shell-support.ts";

const suffix = randomUUID().slice(0, 6);
const keys = ["cf_sektor_kodu", "cf_bayi_no"];

/** Drops the two fields (a run that stopped halfway leaves them behind) and what the journey made. */
async function cleanUp(baseURL: string, extra: { customers?: string[]; quote?: string | null; template?: string | null; defaultTemplate?: string | null } = {}) {
  const { client } = await signedInClient(baseURL, "admin@demo.test");
  if (extra.quote) await rpc(client, "delete_quotes", { p_ids: [extra.quote] });
  if (extra.customers?.length) await rpc(client, "delete_customers", { p_ids: extra.customers });
  if (extra.template) await rpc(client, "delete_document_template", { p_id: extra.template });
  if (extra.defaultTemplate) {
    const templates = (await rpc(client, "list_document_templates", {})).templates as { id: string; kind: string; name: string; body: string }[];
    const previous = templates.find((template) => template.id === extra.defaultTemplate);
    if (previous) {
      await rpc(client, "save_document_template", { p_id: previous.id, p_kind: previous.kind, p_name: previous.name, p_body: previous.body, p_is_default: true });
    }
  }
  for (const key of keys) await rpc(client, "delete_custom_field", { p_module: "customers", p_key: key }).catch(() => undefined);
  await client.auth.signOut({ scope: "local" });
}

/** Adds a custom field to the customers on the admin console's "Özel Alanlar" page. */
async function addCustomField(page: Page, field: { label: string; type: string; options?: string[] }) {
  await page.getByRole("button", { name: "Alan ekle" }).click();
  const dialog = page.getByRole("dialog", { name: "Alan ekle" });
  await dialog.getByRole("textbox", { name: "Etiket (Türkçe)" }).fill(field.label);
  await dialog.getByRole("combobox", { name: "Tür" }).selectOption({ label: field.type });
  for (const [index, option] of (field.options ?? []).entries()) {
    await dialog.getByRole("button", { name: "Seçenek ekle" }).click();
    await dialog.getByRole("textbox", { name: `${index + 1}. seçenek` }).fill(option);
  }
  await dialog.getByRole("checkbox", { name: "Listede göster" }).check();
  await dialog.getByRole("checkbox", { name: "Filtrelenebilir" }).check();
  await dialog.getByRole("button", { name: "Kaydet" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("row").filter({ hasText: field.label })).toBeVisible();
}

test.beforeAll(async ({ baseURL }) => {
  await cleanUp(baseURL!);
});

test("custom fields are filled by an import, shown and filtered in the list, exported, and printed in a quote PDF", async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  const folder = mkdtempSync(join(tmpdir(), "crm-e2e-custom-fields-"));
  const made: { customers: string[]; quote: string | null; template: string | null; defaultTemplate: string | null } = {
    customers: [],
    quote: null,
    template: null,
    defaultTemplate: null,
  };
  try {
    await enterApp(page, "admin@demo.test");

    // The two fields, through the admin console.
    await page.goto("/admin");
    await page.getByRole("link", { name: "Özel Alanlar" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Özel Alanlar" })).toBeVisible();
    await addCustomField(page, { label: "Sektör kodu", type: "Tek seçim", options: ["A", "B", "C"] });
    await addCustomField(page, { label: "Bayi no", type: "Sayı" });

    // A CSV whose headers differ from the labels in case only: matched by themselves, values converted.
    const names = [`Özel Alan Bir ${suffix}`, `Özel Alan İki ${suffix}`];
    const csv = Buffer.from(
      "\uFEFF" + [["Ad", "Sektör Kodu", "Bayi No"], [names[0], "b", "1.234"], [names[1], "C", "56"]].map((row) => row.join(";")).join("\r\n") + "\r\n",
      "utf8",
    );
    await page.goto("/import-export");
    await page.getByRole("combobox", { name: "Aktarılacak kayıtlar" }).click();
    await page.getByRole("option", { name: "Müşteriler" }).click();
    await page.locator("input[type=file]").setInputFiles({ name: `ozel-alanlar-${suffix}.csv`, mimeType: "text/csv", buffer: csv });
    await page.getByRole("button", { name: "İleri" }).click();
    const mapping = page.getByRole("table", { name: "Sütun eşleştirmesi" });
    await expect(mapping.getByRole("row").filter({ hasText: "Sektör Kodu" }).getByRole("combobox")).toHaveValue("Sektör kodu");
    await expect(mapping.getByRole("row").filter({ hasText: "Bayi No" }).getByRole("combobox")).toHaveValue("Bayi no");
    await page.getByRole("button", { name: "İleri" }).click();
    await page.getByRole("button", { name: "Satırları kontrol et" }).click();
    await expect(page.getByText(/satırda hata var/)).toHaveCount(0, { timeout: 30_000 });
    await page.getByRole("button", { name: "Aktarımı başlat (2 satır)" }).click();
    await expect(page.getByText("Aktarım tamamlandı")).toBeVisible({ timeout: 30_000 });

    const { client } = await signedInClient(baseURL!, "admin@demo.test");
    const imported = (await rpc(client, "list_customers", { p_search: suffix, p_limit: 10 })).records as Record<string, unknown>[];
    made.customers.push(...imported.map((record) => record.id as string));
    const byName = new Map(imported.map((record) => [record.name, record]));
    expect(byName.get(names[0])).toMatchObject({ cf_bayi_no: 1234 });
    expect(byName.get(names[1])).toMatchObject({ cf_bayi_no: 56 });

    // The list: both columns shown, the option's label, the number in Turkish; filtered by each.
    await page.goto("/customers");
    await page.getByRole("searchbox", { name: "Ara" }).fill(suffix);
    await expect(page.getByText("Toplam 2 müşteri")).toBeVisible();
    const list = page.getByRole("table", { name: "Müşteri listesi" });
    await expect(list.getByRole("columnheader", { name: "Sektör kodu" })).toBeVisible();
    await expect(list.getByRole("columnheader", { name: "Bayi no" })).toBeVisible();
    await expect(list.getByRole("row").filter({ hasText: names[0] })).toContainText("1.234");
    await expect(list.getByRole("row").filter({ hasText: names[1] })).toContainText("C");
    await page.getByRole("combobox", { name: "Sektör kodu" }).selectOption({ label: "C" });
    await expect(page.getByText("Toplam 1 müşteri")).toBeVisible();
    await expect(list).toContainText(names[1]);
    await page.getByRole("combobox", { name: "Sektör kodu" }).selectOption({ label: "Tümü" });
    await page.getByRole("button", { name: "Bayi no: aralık seçin" }).click();
    await page.getByRole("spinbutton", { name: "En az" }).fill("1000");
    await page.getByRole("button", { name: "Uygula" }).click();
    await expect(page.getByText("Toplam 1 müşteri")).toBeVisible();
    await expect(list).toContainText(names[0]);
    await page.getByRole("button", { name: "Bayi no: aralık seçin" }).click();
    await page.getByRole("button", { name: "Temizle" }).click();
    await expect(page.getByText("Toplam 2 müşteri")).toBeVisible();

    // The view exported to Excel: the fields under their labels, the option as its label, the number a number.
    await page.getByRole("button", { name: "Dışa aktar" }).click();
    const downloading = page.waitForEvent("download");
    await page.getByRole("menuitem", { name: "Görünümü dışa aktar: Excel (.xlsx)" }).click();
    const workbook = XLSX.read(readFileSync((await (await downloading).path())!), { type: "buffer" });
    const sheet = workbook.Sheets[workbook.SheetNames[0]];
    const cells = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true });
    const header = cells[0] as string[];
    const sector = header.indexOf("Sektör kodu");
    const dealer = header.indexOf("Bayi no");
    expect(sector).toBeGreaterThan(0);
    expect(dealer).toBeGreaterThan(0);
    const first = cells.slice(1).find((row) => row.includes(names[0]))!;
    expect(first[sector]).toBe("B");
    expect(first[dealer]).toBe(1234);

    // A quote template printing the customer's field, the default while the quote's PDF is made.
    const templates = (await rpc(client, "list_document_templates", {})).templates as { id: string; kind: string; is_default: boolean }[];
    made.defaultTemplate = templates.find((template) => template.kind === "quote" && template.is_default)?.id ?? null;
    await page.goto("/admin/document-templates");
    await page.getByRole("button", { name: "Yeni şablon" }).click();
    const editor = page.getByRole("dialog", { name: "Yeni şablon" });
    await editor.getByRole("textbox", { name: "Şablon adı" }).fill(`Özel alanlı teklif ${suffix}`);
    const body = editor.getByRole("textbox", { name: "Şablon metni" });
    await body.fill("Sektör kodu: ");
    // Offered by its label; the preview shows the label where the value goes.
    await editor.getByRole("group", { name: "Müşterinin özel alanları" }).getByRole("button", { name: "Sektör kodu" }).click();
    await expect(body).toHaveValue("Sektör kodu: {{customer.cf_sektor_kodu}}");
    await expect(editor.getByRole("region", { name: "Önizleme" })).toContainText("Sektör kodu: ‹Sektör kodu›");
    await editor.getByRole("switch", { name: "Bu türün varsayılan şablonu" }).check();
    await editor.getByRole("button", { name: "Kaydet" }).click();
    await expect(editor).toBeHidden();
    const saved = (await rpc(client, "list_document_templates", {})).templates as { id: string; name: string }[];
    made.template = saved.find((template) => template.name === `Özel alanlı teklif ${suffix}`)?.id ?? null;

    const quote = await rpc(client, "save_quote", {
      p_id: null,
      p_values: { customer_id: byName.get(names[0])!.id },
      p_items: [{ description: `Hizmet ${suffix}`, quantity: "1", unit: "adet", unit_price: "100", vat_rate: 20 }],
    });
    made.quote = quote.id as string;
    await client.auth.signOut({ scope: "local" });
    await page.goto(`/quotes/${made.quote}`);
    await page.getByRole("tab", { name: "Belgeler" }).click();
    const pdf = page.waitForEvent("download", { timeout: 90_000 });
    await page.getByRole("button", { name: "PDF indir" }).click();
    const file = join(folder, "teklif.pdf");
    await (await pdf).saveAs(file);
    const text = execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    expect(text.replace(/\s+/g, " ")).toContain("Sektör kodu: B");
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await cleanUp(baseURL!, made);
  }
});
