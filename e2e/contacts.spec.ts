import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { enterAppAt } from "./shell-support.ts";

const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const notification = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });

test("an admin records a contact with consent, notes it, exports its data and erases it", async ({ page }) => {
  test.setTimeout(60_000);
  // A name no demo contact resembles: a similar one would (rightly) stop the form with a duplicate warning.
  const lastName = `Zeytinoğlu ${randomUUID().slice(0, 6)}`;
  await enterAppAt(page, "/contacts", "admin@demo.test");
  await expect(page.getByRole("table", { name: "Kişi listesi" })).toBeVisible();

  await page.getByRole("button", { name: "Yeni kişi" }).click();
  const form = page.getByRole("dialog", { name: "Yeni kişi" });
  await form.getByRole("textbox", { name: "Ad", exact: true }).fill("Elif");
  await form.getByRole("textbox", { name: "Soyad" }).fill(lastName);
  await form.getByRole("textbox", { name: "1. e-posta adresi" }).fill("elif@example.com");
  await form.getByRole("combobox", { name: "1. telefonun türü" }).selectOption({ label: "İş" });
  await form.getByRole("textbox", { name: "1. telefon numarası" }).fill("0532 111 22 33");
  // Consent needs the channel it was given through.
  await form.getByRole("checkbox", { name: "KVKK açık rızası alındı" }).check();
  await form.getByRole("button", { name: "Kişiyi oluştur" }).click();
  await expect(form.getByText("Bu alan zorunludur.")).toBeVisible();
  await form.getByRole("combobox", { name: "Rızanın alındığı kanal" }).selectOption({ label: "Yüz yüze" });
  await form.getByRole("checkbox", { name: "SMS" }).check();
  await form.getByRole("button", { name: "Kişiyi oluştur" }).click();

  await expect(h1(page)).toHaveText(`Elif ${lastName}`);
  await expect(page.getByText("+90 532 111 22 33")).toBeVisible();
  await expect(page.getByText(/^Var · Yüz yüze/)).toBeVisible();
  await expect(page.getByText("SMS: Var")).toBeVisible();

  await page.getByRole("tab", { name: "Notlar ve geçmiş" }).click();
  await page.getByRole("textbox", { name: "Yeni not" }).fill("Fuarda tanıştık.");
  // The note shows at once; the export below must find it stored, so its save is awaited (a full
  // run once exported while add_record_note was still on its way).
  const noteSaved = page.waitForResponse((response) => response.url().endsWith("/rpc/add_record_note") && response.ok());
  await page.getByRole("button", { name: "Not ekle" }).click();
  await noteSaved;
  await expect(page.getByText("Fuarda tanıştık.")).toBeVisible();

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Verileri indir (JSON)" }).click();
  const exported = JSON.parse(await readFile(await (await download).path(), "utf8")) as {
    data: { contact: { last_name: string }; notes: { body: string }[] };
  };
  expect(exported.data.contact.last_name).toBe(lastName);
  expect(exported.data.notes.map((note) => note.body)).toEqual(["Fuarda tanıştık."]);

  await page.getByRole("button", { name: "Kişiyi anonimleştir" }).click();
  await page.getByRole("dialog", { name: "Kişinin verileri silinsin mi?" }).getByRole("button", { name: "Kişiyi anonimleştir" }).click();
  await expect(notification(page, "Kişinin verileri silindi.")).toBeVisible();
  await expect(h1(page)).toHaveText("Kişiler");
  await page.getByRole("searchbox", { name: "Ara" }).fill(lastName);
  await expect(page.getByText("Aramanıza uyan kişi yok.")).toBeVisible();
});

test("a contact with the same email is flagged before it is created, then merged into the existing one", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const suffix = randomUUID().slice(0, 6);
  const deniz = `E2E Deniz ${suffix}`;
  const newcomer = `Deniz Kaya ${suffix}`;
  const email = `deniz.${suffix}@example.com`;
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const created = await rpc(client, "create_contact", {
    p_values: { first_name: "E2E Deniz", last_name: suffix, title: "Satın Alma Müdürü", emails: [{ label: "work", value: email }] },
  });
  expect(created).toMatchObject({ success: true });
  const denizId = (created.record as { id: string }).id;
  try {
    await enterAppAt(page, "/contacts", "admin@demo.test");
    await expect(page.getByRole("table", { name: "Kişi listesi" })).toBeVisible();

    // The same email: the existing contact is listed with the reason, not created yet.
    await page.getByRole("button", { name: "Yeni kişi" }).click();
    const form = page.getByRole("dialog", { name: "Yeni kişi" });
    await form.getByRole("textbox", { name: "Ad", exact: true }).fill("Deniz");
    await form.getByRole("textbox", { name: "Soyad" }).fill(`Kaya ${suffix}`);
    await form.getByRole("textbox", { name: "Unvan" }).fill("Genel Müdür");
    await form.getByRole("textbox", { name: "1. e-posta adresi" }).fill(email);
    await form.getByRole("button", { name: "Kişiyi oluştur" }).click();
    const similar = form.getByRole("list", { name: "Benzer kişiler" }).getByRole("listitem").filter({ hasText: deniz });
    await expect(similar).toContainText("Aynı e-posta");
    await expect(similar).toContainText(email);
    await expect(similar.getByRole("link", { name: "Mevcut kaydı aç" })).toBeVisible();

    // Created, then merged: Deniz stays, with the newcomer's job title.
    await similar.getByRole("button", { name: "Oluştur ve bununla birleştir" }).click();
    await expect(notification(page, `“${newcomer}” kişisi oluşturuldu.`)).toBeVisible();
    const merge = page.getByRole("dialog", { name: "Kişileri birleştir" });
    const survivor = merge.getByRole("radiogroup", { name: "Kalacak kayıt" });
    await expect(survivor.getByRole("radio", { name: newcomer, exact: true })).toBeVisible();
    await survivor.getByRole("radio", { name: deniz, exact: true }).check();
    await merge.getByRole("radiogroup", { name: "Unvan" }).getByRole("radio", { name: "Genel Müdür" }).check();
    await merge.getByRole("button", { name: "Birleştir" }).click();
    await expect(notification(page, `Kişiler “${deniz}” altında birleştirildi.`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/contacts/${denizId}$`));
    await expect(h1(page)).toHaveText(deniz);
    await expect(page.getByText("Genel Müdür").first()).toBeVisible();
    await expect(page.getByRole("link", { name: email })).toBeVisible();

    // The newcomer is gone: only Deniz is found.
    await page.getByRole("link", { name: "Kişilere dön" }).click();
    await page.getByRole("searchbox", { name: "Ara" }).fill(suffix);
    await expect(page.getByText("Toplam 1 kişi")).toBeVisible();
    await expect(page.getByRole("table", { name: "Kişi listesi" }).getByRole("link", { name: deniz })).toBeVisible();
  } finally {
    // The merged-away contact is deleted already; the survivor goes too.
    expect(await rpc(client, "delete_contacts", { p_ids: [denizId] })).toMatchObject({ success: true });
    await client.auth.signOut({ scope: "local" });
  }
});

test("the contact list names each contact's company as a link, sorts by it and filters by a company picked by name", async ({ page, baseURL }) => {
  const suffix = randomUUID().slice(0, 6);
  const company = `Çınar Yapı ${suffix}`;
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const customer = await rpc(client, "create_customer", { p_values: { name: company } });
  expect(customer).toMatchObject({ success: true });
  const customerId = (customer.record as { id: string }).id;
  const contact = await rpc(client, "create_contact", { p_values: { first_name: "Oya", last_name: `Işıklı ${suffix}`, customer_id: customerId } });
  expect(contact).toMatchObject({ success: true });
  const contactId = (contact.record as { id: string }).id;
  try {
    await enterAppAt(page, "/contacts", "admin@demo.test");
    const table = page.getByRole("table", { name: "Kişi listesi" });
    await expect(table).toBeVisible();
    await page.getByRole("searchbox", { name: "Ara" }).fill(suffix);
    await expect(page.getByText("Toplam 1 kişi")).toBeVisible();
    // The company by name, a link to its page; no id anywhere in the row.
    const row = table.getByRole("row").filter({ hasText: `Oya Işıklı ${suffix}` });
    await expect(row.getByRole("link", { name: company })).toHaveAttribute("href", `/customers/${customerId}`);
    await expect(row).not.toContainText(customerId);
    // Sortable by the company's name (the server sorts the link by the linked record's name).
    await table.getByRole("button", { name: "Müşteri" }).click();
    await expect(table.getByRole("columnheader", { name: "Müşteri" })).toHaveAttribute("aria-sort", "ascending");
    await expect(row.getByRole("link", { name: company })).toBeVisible();

    // The filter picks the company by name.
    await page.getByRole("searchbox", { name: "Ara" }).fill("");
    const picker = page.getByRole("combobox", { name: "Müşteri" });
    await picker.fill(company);
    await page.getByRole("option", { name: company }).click();
    await expect(page.getByText("Toplam 1 kişi")).toBeVisible();
    await expect(table.getByRole("link", { name: `Oya Işıklı ${suffix}` })).toBeVisible();
  } finally {
    expect(await rpc(client, "delete_contacts", { p_ids: [contactId] })).toMatchObject({ success: true });
    expect(await rpc(client, "delete_customers", { p_ids: [customerId] })).toMatchObject({ success: true });
    await client.auth.signOut({ scope: "local" });
  }
});
