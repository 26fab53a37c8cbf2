/**
 * Custom fields end to end (issue 26, part 3), as people use them: an admin adds "Sektör kodu"
 * (one choice of A, B, C) and "Bayi no" (a number) to the customers on the admin console's
 * "Özel Alanlar" page; a sales user opens a customer of theirs, fills both in its form (a
 * number that is not one is refused on its input first) and saves; the record page shows them
 * in its "Özel alanlar" block; deleting a field first says how many records hold a value.
 *
 * Needs the database part (list/save/delete/count_custom_field_values and custom values in
 * create_/update_/get_customer) merged.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { enterApp, enterAppAt } from "./shell-support.ts";

const suffix = randomUUID().slice(0, 6);
const keys = ["cf_sektor_kodu", "cf_bayi_no"];
const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const fieldsTable = (page: Page) => page.getByRole("table", { name: "Müşteriler özel alanları" });
const notification = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

/** Drops the two fields (a run that stopped halfway leaves them behind) and the customer. */
async function cleanUp(baseURL: string, customer?: string) {
  const { client } = await signedInClient(baseURL, "admin@demo.test");
  if (customer) await rpc(client, "delete_customers", { p_ids: [customer] });
  for (const key of keys) await rpc(client, "delete_custom_field", { p_module: "customers", p_key: key }).catch(() => undefined);
  await client.auth.signOut({ scope: "local" });
}

test.beforeAll(async ({ baseURL }) => {
  await cleanUp(baseURL!);
});

test("an admin adds two custom fields; a sales user fills them on a customer; its page shows them", async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  const { client: sales } = await signedInClient(baseURL!, "satis@demo.test");
  const name = `E2E Özel Alan ${suffix}`;
  const created = await rpc(sales, "create_customer", { p_values: { name, kind: "company", status: "active" } });
  const customer = (created.record as { id: string }).id;
  await sales.auth.signOut({ scope: "local" });
  try {
    await enterAppAt(page, "/admin", "admin@demo.test");
    await page.getByRole("link", { name: /^Özel Alanlar/ }).first().click();
    await expect(page).toHaveURL(/\/admin\/custom-fields$/);
    await expect(h1(page)).toHaveText("Özel Alanlar");
    await expect(page.getByRole("combobox", { name: "Bölüm" })).toHaveValue("Müşteriler");

    // A choice field: the label is required, a choice needs options.
    await page.getByRole("button", { name: "Alan ekle" }).click();
    let dialog = page.getByRole("dialog", { name: "Alan ekle" });
    await dialog.getByRole("combobox", { name: "Tür" }).selectOption({ label: "Tek seçim" });
    await dialog.getByRole("button", { name: "Kaydet" }).click();
    await expect(dialog.getByText("Bu alan zorunludur.")).toBeVisible();
    await expect(dialog.getByText("En az bir seçenek ekleyin; her seçeneğin Türkçe etiketi olmalı.")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("textbox", { name: "Etiket (Türkçe)" }).fill("Sektör kodu");
    for (const [index, option] of ["A", "B", "C"].entries()) {
      await dialog.getByRole("button", { name: "Seçenek ekle" }).click();
      await dialog.getByRole("textbox", { name: `${index + 1}. seçenek`, exact: true }).fill(option);
    }
    await dialog.getByRole("checkbox", { name: "Listede göster" }).check();
    await dialog.getByRole("button", { name: "Kaydet" }).click();
    await expect(dialog).toBeHidden();
    await expect(notification(page, "“Sektör kodu” alanı eklendi.")).toBeVisible();

    await page.getByRole("button", { name: "Alan ekle" }).click();
    dialog = page.getByRole("dialog", { name: "Alan ekle" });
    await dialog.getByRole("textbox", { name: "Etiket (Türkçe)" }).fill("Bayi no");
    await dialog.getByRole("combobox", { name: "Tür" }).selectOption({ label: "Sayı" });
    await dialog.getByRole("button", { name: "Kaydet" }).click();
    await expect(dialog).toBeHidden();

    const rows = fieldsTable(page).getByRole("row");
    await expect(rows.filter({ hasText: "Sektör kodu" })).toContainText("Tek seçim");
    await expect(rows.filter({ hasText: "Bayi no" })).toContainText("Sayı");
    expect(await seriousViolations(page)).toEqual([]);

    // A saved field shows its key and its document-template placeholder, not to be changed.
    await page.getByRole("button", { name: "Sektör kodu alanını düzenle" }).click();
    dialog = page.getByRole("dialog", { name: "Alanı düzenle" });
    await expect(dialog.getByRole("textbox", { name: "Alan anahtarı" })).toHaveValue("cf_sektor_kodu");
    await expect(dialog.getByRole("textbox", { name: "Belge şablonunda" })).toHaveValue("{{customer.cf_sektor_kodu}}");
    await dialog.getByRole("button", { name: "Vazgeç" }).click();

    // The sales user, in a browser of their own, fills them on their customer.
    const salesPage = await (await browser.newContext()).newPage();
    await enterApp(salesPage, "satis@demo.test");
    await salesPage.goto(`/customers/${customer}`);
    await expect(h1(salesPage)).toHaveText(name);
    await salesPage.getByRole("group", { name: "Kayıt işlemleri" }).getByRole("button", { name: "Düzenle" }).click();
    const form = salesPage.getByRole("dialog", { name: "Müşteriyi düzenle" });
    const custom = form.getByRole("group", { name: "Özel alanlar" });
    await custom.getByRole("textbox", { name: "Bayi no" }).fill("42,5");
    await custom.getByLabel("Sektör kodu").click();
    await salesPage.getByRole("option", { name: "B", exact: true }).click();
    expect(await seriousViolations(salesPage)).toEqual([]);
    await form.getByRole("button", { name: "Değişiklikleri kaydet" }).click();
    await expect(form).toBeHidden();

    const block = salesPage.getByRole("region", { name: "Özel alanlar" });
    // Each value under its label: the option by its label, the number in Turkish.
    await expect(block.getByRole("term")).toHaveText(["Sektör kodu", "Bayi no"]);
    await expect(block.getByRole("definition")).toHaveText(["B", "42,5"]);
    expect(await seriousViolations(salesPage)).toEqual([]);
    // The history names the fields by their labels and the choice by its option, never by key or value.
    await salesPage.getByRole("tab", { name: "Notlar ve geçmiş" }).click();
    await expect(salesPage.getByText(/Sektör kodu alanını değiştirdi: boş → B$/)).toBeVisible();
    await expect(salesPage.getByText(/Bayi no alanını değiştirdi: boş → 42,5$/)).toBeVisible();

    await salesPage.context().close();

    // Deleting a field first says how many records hold a value.
    await page.reload();
    await page.getByRole("button", { name: "Bayi no alanını sil" }).click();
    dialog = page.getByRole("dialog", { name: "Alanı sil" });
    await expect(dialog).toContainText("1 kayıtta bu alanın değeri var; silinirse bu değerler de silinir.");
    await dialog.getByRole("button", { name: "Sil" }).click();
    await expect(notification(page, "“Bayi no” alanı silindi.")).toBeVisible();
    await expect(fieldsTable(page).getByRole("row").filter({ hasText: "Bayi no" })).toHaveCount(0);
  } finally {
    await cleanUp(baseURL!, customer);
  }
});

/** A custom field of each other module (through the RPC the admin page calls), of a type whose input differs. */
const otherFields = [
  { module: "contacts", field: { label_tr: "E2E Not", type: "text" }, path: "/contacts", edit: "Kişiyi düzenle", save: "Değişiklikleri kaydet", shown: "Merhaba" },
  { module: "deals", field: { label_tr: "E2E Bütçe", type: "money", currency: "EUR" }, path: "/deals", edit: "Fırsatı düzenle", save: "Kaydet", shown: "€1.250" },
  { module: "tasks", field: { label_tr: "E2E Teslim", type: "date", listed: true }, path: "/tasks", edit: "Görevi düzenle", save: "Değişiklikleri kaydet", shown: "1 Mar 2026" },
  { module: "contracts", field: { label_tr: "E2E Onaylı", type: "boolean" }, path: "/contracts", edit: "Sözleşmeyi düzenle", save: "Kaydet", shown: "Evet" },
  {
    module: "quotes",
    field: { label_tr: "E2E Kanal", type: "multi_choice", options: [{ label_tr: "Bayi" }, { label_tr: "Web" }] },
    path: "/quotes",
    edit: null,
    save: "Kaydet",
    shown: "Web",
  },
] as const;

test("every other module's form (a document's own on its page) takes its custom field and its record page shows it", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const made: { module: string; key: string }[] = [];
  let customer: string | null = null;
  try {
    const records: Record<string, string> = {};
    for (const { module, field } of otherFields) {
      const saved = await rpc(client, "save_custom_field", { p_module: module, p_field: field });
      made.push({ module, key: (saved.field as { key: string }).key });
      const list = await rpc(client, `list_${module}`, { p_filters: {}, p_sort: "updated_at", p_descending: true, p_limit: 100, p_offset: 0 });
      // A contract or quote past its draft is no longer edited.
      const record = (list.records as { id: string; status?: string; locked?: boolean }[]).find(
        (row) => !row.locked && (module === "contracts" || module === "quotes" ? row.status === "draft" : true),
      );
      expect(record, `a ${module} record to edit`).toBeDefined();
      records[module] = record!.id;
    }

    await enterApp(page, "admin@demo.test");
    // A document has no form of its own: its custom fields are edited on its page.
    const document = await rpc(client, "save_custom_field", { p_module: "documents", p_field: { label_tr: "E2E Arşiv no", type: "text" } });
    made.push({ module: "documents", key: (document.field as { key: string }).key });
    const owner = await rpc(client, "create_customer", { p_values: { name: `E2E Belge ${suffix}`, kind: "company", status: "active" } });
    customer = (owner.record as { id: string }).id;
    await page.goto(`/customers/${customer}`);
    await page.getByRole("tab", { name: "Belgeler" }).click();
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Dosya seç" }).click();
    await (await chooser).setFiles({ name: "arsiv.txt", mimeType: "text/plain", buffer: Buffer.from(`Arşiv ${suffix}`) });
    await page.getByRole("list", { name: "Kaydın belgeleri" }).getByRole("link", { name: "arsiv", exact: true }).click();
    await page.getByRole("tab", { name: "Bilgiler" }).click();
    await page.getByRole("button", { name: "Özel alanları düzenle" }).click();
    const documentForm = page.getByRole("dialog", { name: "Özel alanları düzenle" });
    await documentForm.getByRole("textbox", { name: "E2E Arşiv no" }).fill("A-17");
    await documentForm.getByRole("button", { name: "Kaydet" }).click();
    await expect(documentForm).toBeHidden();
    await expect(page.getByRole("region", { name: "Özel alanlar" }).getByRole("definition")).toHaveText(["A-17"]);

    for (const { module, field, path, edit, save, shown } of otherFields) {
      if (edit) {
        await page.goto(`${path}/${records[module]}`);
        await page.getByRole("group", { name: "Kayıt işlemleri" }).getByRole("button", { name: "Düzenle" }).click();
      } else {
        await page.goto(`${path}/${records[module]}?edit=1`);
      }
      const form = edit ? page.getByRole("dialog", { name: edit }) : page.locator("form[data-quote-editor]");
      const custom = form.getByRole("group", { name: "Özel alanlar" });
      switch (field.type) {
        case "text":
          await custom.getByRole("textbox", { name: field.label_tr }).fill("Merhaba");
          break;
        case "money":
          await custom.getByRole("textbox", { name: field.label_tr }).fill("1250");
          break;
        case "date":
          await custom.getByLabel(field.label_tr).fill("2026-03-01");
          break;
        case "boolean":
          await custom.getByRole("switch", { name: field.label_tr }).check();
          break;
        case "multi_choice":
          await custom.getByLabel(field.label_tr).click();
          await page.getByRole("option", { name: "Web", exact: true }).click();
          await page.keyboard.press("Escape");
          break;
      }
      await form.getByRole("button", { name: save }).click();
      if (edit) await expect(form).toBeHidden();
      else await expect(page).toHaveURL(new RegExp(`${path}/${records[module]}$`));
      const block = page.getByRole("region", { name: "Özel alanlar" });
      await expect(block.getByRole("term"), module).toHaveText([field.label_tr]);
      await expect(block.getByRole("definition"), module).toHaveText([shown]);
    }
    // A field shown in lists is a column of the task list too, with the value as the record page reads it.
    const task = await rpc(client, "get_task", { p_id: records.tasks });
    await page.goto(`/tasks?view=all`);
    await page.getByRole("searchbox", { name: "Ara" }).fill((task.record as { title: string }).title);
    const tasks = page.getByRole("table", { name: "Görev listesi" });
    await expect(tasks.getByRole("columnheader", { name: "E2E Teslim" })).toBeVisible();
    await expect(tasks.getByRole("row").filter({ has: page.locator(`a[href="/tasks/${records.tasks}"]`) })).toContainText("1 Mar 2026");
  } finally {
    for (const { module, key } of made) await rpc(client, "delete_custom_field", { p_module: module, p_key: key }).catch(() => undefined);
    if (customer) await rpc(client, "delete_customers", { p_ids: [customer] });
    await client.auth.signOut({ scope: "local" });
  }
});

test("a quote becomes a contract when contracts have a required custom field: the field is asked for first", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const customers = (await rpc(client, "list_customers", { p_limit: 1 })).records as { id: string }[];
  let key: string | null = null;
  let contractId: string | null = null;
  try {
    const saved = await rpc(client, "save_quote", {
      p_id: null,
      p_values: { customer_id: customers[0].id },
      p_items: [{ description: `Kurulum ${suffix}`, quantity: "1", unit_price: "2500", vat_rate: 20 }],
    });
    const quoteId = saved.id as string;
    await rpc(client, "send_quote", { p_id: quoteId, p_updated_at: saved.updated_at });
    const field = await rpc(client, "save_custom_field", { p_module: "contracts", p_field: { label_tr: `E2E Onaylayan ${suffix}`, type: "text", required: true } });
    key = (field.field as { key: string }).key;

    // The contracts' declarations are held back: the dialog is open before they arrive, and it
    // must not send (a full run clicked first and the field's error then had no input to land on).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/rest/v1/rpc/list_custom_fields", async (route) => {
      if ((route.request().postDataJSON() as { p_module?: string }).p_module === "contracts") await held;
      await route.continue();
    });
    await enterAppAt(page, `/quotes/${quoteId}`, "admin@demo.test");
    await page.getByRole("button", { name: "Sözleşmeye dönüştür" }).click();
    const dialog = page.getByRole("dialog", { name: "Sözleşmenin alanları" });
    await expect(dialog.getByText("Sözleşmelerin doldurulması gereken alanları var")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Sözleşmeye dönüştür" })).toBeDisabled();
    release();
    await dialog.getByRole("button", { name: "Sözleşmeye dönüştür" }).click();
    await expect(dialog.getByRole("textbox", { name: `E2E Onaylayan ${suffix}` })).toHaveAttribute("aria-invalid", "true");
    await dialog.getByRole("textbox", { name: `E2E Onaylayan ${suffix}` }).fill("Ayşe Yönetici");
    await dialog.getByRole("button", { name: "Sözleşmeye dönüştür" }).click();
    await expect(page).toHaveURL(/\/contracts\/[0-9a-f-]{36}$/);
    contractId = page.url().split("/").pop()!;
    const block = page.getByRole("region", { name: "Özel alanlar" });
    await expect(block.getByRole("definition")).toContainText(["Ayşe Yönetici"]);
  } finally {
    if (key) await rpc(client, "delete_custom_field", { p_module: "contracts", p_key: key }).catch(() => undefined);
    if (contractId) await rpc(client, "delete_contracts", { p_ids: [contractId] }).catch(() => undefined);
    await client.auth.signOut({ scope: "local" });
  }
});
