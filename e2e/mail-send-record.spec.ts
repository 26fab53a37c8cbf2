import { expect, test } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { testKeys } from "../tests/support/keys.ts";
import { caughtFor } from "./mail-support.ts";
import { enterAppAt } from "./shell-support.ts";

const secret = { authorization: `Bearer ${testKeys.secretKey}` };

/** Turkish money as the PDF writes it, from the database's decimal text. */
const lira = (value: string) =>
  new Intl.NumberFormat("tr-TR", { style: "currency", currency: "TRY", currencyDisplay: "narrowSymbol", minimumFractionDigits: 2 }).format(
    value as `${number}`,
  );

// Issue 27: a quote is sent from its page to its contact with its PDF; the local mail server
// holds the message (a Turkish subject decoded as written, the PDF attached and readable),
// the quote is sent and locked, and the e-mail is on the quote's and the customer's timelines.
test("a sales member e-mails a quote with KDV lines to its contact: caught with its PDF, the quote sent and locked, on both timelines", async ({ page, baseURL }) => {
  // pdfmake's first load and render in the browser, the upload and the SMTP round trip on 2 shared cores.
  test.setTimeout(150_000);
  const suffix = randomUUID().slice(0, 6);
  const address = `ali.isik.${suffix}@isik.test`;
  const { client } = await signedInClient(baseURL!, "satis@demo.test");
  const customer = (await rpc(client, "create_customer", { p_values: { name: `Işık Gıda ${suffix}` } })).record as { id: string };
  // Its own customer, contact and quote, out of the lists again after the journey (other journeys count the demo's customers).
  let contactId: string | null = null;
  let quoteId: string | null = null;
  try {
    const contact = (
      await rpc(client, "create_contact", {
        p_values: { customer_id: customer.id, first_name: "Ali", last_name: "Işık", emails: [{ label: "work", value: address }] },
      })
    ).record as { id: string };
    contactId = contact.id;
    const saved = await rpc(client, "save_quote", {
      p_id: null,
      p_values: { customer_id: customer.id, contact_id: contact.id },
      p_items: [
        { description: "Danışmanlık", quantity: "2", unit: "saat", unit_price: "1000.50", vat_rate: 20 },
        { description: "Eğitim", quantity: "3", unit_price: "250", vat_rate: 10 },
      ],
    });
    expect(saved).toMatchObject({ success: true });
    const id = saved.id as string;
    quoteId = id;
    const number = saved.quote_number as string;
    const details = await rpc(client, "get_quote_details", { p_id: id });
    const grandTotal = (details.totals as { grand_total: string }).grand_total;
    const subject = `${number} numaralı teklifimiz – ğüşıöç ĞÜŞİÖÇ`;

    await enterAppAt(page, `/quotes/${id}`, "satis@demo.test");
    await page.getByRole("button", { name: "E-posta ile gönder" }).click();
    const composer = page.getByRole("dialog", { name: "E-posta ile gönder" });
    // The contact's address first; the template filled as the PDF is.
    await expect(composer.getByText(address, { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(composer.getByRole("textbox", { name: "Konu" })).toHaveValue(`${number} numaralı teklifimiz – Demo Ticaret A.Ş.`);
    await expect(composer.getByRole("textbox", { name: "İleti" })).toHaveValue(/^Sayın Ali Işık,\n\n/);
    await expect(composer.getByRole("textbox", { name: "İleti" })).toHaveValue(new RegExp(lira(grandTotal).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    await expect(composer.getByText(`Ek: ${number}.pdf`)).toBeVisible();
    await composer.getByRole("textbox", { name: "Konu" }).fill(subject);
    await composer.getByRole("button", { name: "Gönder" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "E-posta gönderildi" })).toBeVisible({ timeout: 90_000 });

    // One message to the contact: the subject decoded as written, the PDF attached.
    await expect.poll(async () => (await caughtFor(page, address)).length).toBe(1);
    const [message] = await caughtFor(page, address);
    expect(message.subject).toBe(subject);
    expect(message.attachments).toMatchObject([{ filename: `${number}.pdf`, contentType: "application/pdf" }]);
    const attachment = await page.request.get(`/_stack/mail/${message.id}/attachments/0`, { headers: secret });
    expect(attachment.status()).toBe(200);
    const folder = mkdtempSync(join(tmpdir(), "crm-e2e-mail-"));
    try {
      const file = join(folder, `${number}.pdf`);
      writeFileSync(file, await attachment.body());
      const text = execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
      expect(text).toContain(number);
      expect(text).toContain(lira(grandTotal));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }

    // Sent and locked, on the page and in the database.
    await expect(page.getByRole("status").filter({ hasText: "Teklif kilitli" })).toBeVisible();
    expect((await rpc(client, "get_quote_details", { p_id: id })).quote).toMatchObject({ status: "sent", locked: true });

    // The e-mail on the quote's timeline and on its customer's.
    const sentLine = `E-posta gönderildi: ${subject} → ${address}`;
    await page.getByRole("tab", { name: "Notlar ve geçmiş" }).click();
    await expect(page.getByText(sentLine)).toBeVisible();
    await expect(page.getByText(`Ek: Teklif ${number} (PDF)`)).toBeVisible();
    await page.goto(`/customers/${customer.id}`);
    await page.getByRole("tab", { name: "Notlar ve geçmiş" }).click();
    await expect(page.getByText(sentLine)).toBeVisible();
  } finally {
    const admin = (await signedInClient(baseURL!, "admin@demo.test")).client;
    if (quoteId) await rpc(admin, "delete_quotes", { p_ids: [quoteId] }).catch(() => undefined);
    if (contactId) await rpc(admin, "delete_contacts", { p_ids: [contactId] }).catch(() => undefined);
    await rpc(admin, "delete_customers", { p_ids: [customer.id] });
    await admin.auth.signOut({ scope: "local" });
  }
});

// The contract's composer: its two templates (the contract, the renewal reminder), a cc typed
// by hand, the sender's phone from their profile, the PDF named by the contract's number.
test("a sales member e-mails a contract's renewal reminder to its contact with a cc: caught with the PDF, signed with their phone, on the contract's timeline", async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  const suffix = randomUUID().slice(0, 6);
  const address = `selin.ak.${suffix}@ak.test`;
  const copy = `muhasebe.${suffix}@ak.test`;
  const { client } = await signedInClient(baseURL!, "satis@demo.test");
  const customer = (await rpc(client, "create_customer", { p_values: { name: `Ak Lojistik ${suffix}` } })).record as { id: string };
  let contactId: string | null = null;
  let contractId: string | null = null;
  try {
    expect(await rpc(client, "update_my_profile", { p_first_name: "Mehmet", p_last_name: "Demir", p_phone: "0532 444 55 66" })).toMatchObject({
      success: true,
    });
    const contact = (
      await rpc(client, "create_contact", {
        p_values: { customer_id: customer.id, first_name: "Selin", last_name: "Ak", emails: [{ label: "work", value: address }] },
      })
    ).record as { id: string };
    contactId = contact.id;
    const contract = (
      await rpc(client, "create_contract", {
        p_values: { title: `Depo hizmeti ${suffix}`, customer_id: customer.id, contact_id: contact.id, status: "active", start_date: "2026-01-01", end_date: "2026-12-31" },
      })
    ).record as { id: string; contract_number: string };
    contractId = contract.id;
    const number = contract.contract_number;

    await enterAppAt(page, `/contracts/${contract.id}`, "satis@demo.test");
    await page.getByRole("button", { name: "E-posta ile gönder" }).click();
    const composer = page.getByRole("dialog", { name: "E-posta ile gönder" });
    await expect(composer.getByText(address, { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(composer.getByRole("textbox", { name: "Konu" })).toHaveValue(`${number} numaralı sözleşme: Depo hizmeti ${suffix}`);
    await composer.getByText("Yenileme hatırlatması").click();
    await expect(composer.getByRole("textbox", { name: "Konu" })).toHaveValue(`Depo hizmeti ${suffix} sözleşmesinin yenilenmesi`);
    const body = composer.getByRole("textbox", { name: "İleti" });
    await expect(body).toHaveValue(/^Sayın Selin Ak,\n\n/);
    await expect(body).toHaveValue(new RegExp(`${number} numaralı Depo hizmeti ${suffix} sözleşmemiz 31 Aralık 2026 tarihinde sona eriyor`));
    await expect(body).toHaveValue(/Mehmet Demir\nDemo Ticaret A\.Ş\.\n\+90 532 444 55 66$/);
    await expect(composer.getByText(`Ek: ${number}.pdf`)).toBeVisible();
    // A cc that is not an address is refused before anything is sent; a real one is kept.
    const cc = composer.getByRole("combobox", { name: "Bilgi (Cc)" });
    await cc.fill("muhasebe");
    await cc.press("Enter");
    await composer.getByRole("button", { name: "Gönder" }).click();
    await expect(composer.getByText("Geçerli bir e-posta adresi girin: muhasebe")).toBeVisible();
    await cc.press("Backspace");
    await cc.fill(copy);
    await cc.press("Enter");
    await composer.getByRole("button", { name: "Gönder" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "E-posta gönderildi" })).toBeVisible({ timeout: 90_000 });

    // One message, to the contact and the cc, with the contract's PDF.
    await expect.poll(async () => (await caughtFor(page, address)).length).toBe(1);
    const [message] = await caughtFor(page, address);
    expect(message.envelope.to).toEqual(expect.arrayContaining([address, copy]));
    expect(message.subject).toBe(`Depo hizmeti ${suffix} sözleşmesinin yenilenmesi`);
    expect(message.text).toContain("+90 532 444 55 66");
    expect(message.attachments).toMatchObject([{ filename: `${number}.pdf`, contentType: "application/pdf" }]);
    const attachment = await page.request.get(`/_stack/mail/${message.id}/attachments/0`, { headers: secret });
    const folder = mkdtempSync(join(tmpdir(), "crm-e2e-mail-"));
    try {
      const file = join(folder, `${number}.pdf`);
      writeFileSync(file, await attachment.body());
      expect(execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" })).toContain(number);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }

    // On the contract's timeline.
    await page.getByRole("tab", { name: "Notlar ve geçmiş" }).click();
    await expect(page.getByText(`E-posta gönderildi: Depo hizmeti ${suffix} sözleşmesinin yenilenmesi → ${address}`)).toBeVisible();
  } finally {
    await rpc(client, "update_my_profile", { p_first_name: "Mehmet", p_last_name: "Demir", p_phone: "" }).catch(() => undefined);
    const admin = (await signedInClient(baseURL!, "admin@demo.test")).client;
    if (contractId) await rpc(admin, "delete_contracts", { p_ids: [contractId] }).catch(() => undefined);
    if (contactId) await rpc(admin, "delete_contacts", { p_ids: [contactId] }).catch(() => undefined);
    await rpc(admin, "delete_customers", { p_ids: [customer.id] });
    await admin.auth.signOut({ scope: "local" });
  }
});
