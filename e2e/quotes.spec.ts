import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { enterAppAt, scrollsSideways } from "./shell-support.ts";

// The quote made here carries the run's suffix and is deleted again at the end.
const suffix = randomUUID().slice(0, 6);

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

const line = (page: Page, position: number) => page.getByRole("group", { name: `${position}. kalem`, exact: true });
const notification = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Turkish money as the screen writes it (Intl tr-TR), from the database's decimal text. */
const lira = (value: string) =>
  new Intl.NumberFormat("tr-TR", { style: "currency", currency: "TRY", currencyDisplay: "narrowSymbol", minimumFractionDigits: 2 }).format(
    value as `${number}`,
  );

interface Details {
  quote: { id: string; status: string; locked: boolean; updated_at: string; quote_number: string; prices_include_vat: boolean };
  totals: {
    gross_total: string;
    net_total: string;
    document_discount_total: string;
    vat_breakdown: { rate: number | string; base: string; vat: string }[];
    vat_total: string;
    grand_total: string;
  };
}

/** The totals box shows every figure of the database's answer, KDV per rate with its base. */
async function expectTotals(totals: Locator, details: Details) {
  await expect(totals).toContainText(`Ara toplam (matrah)${lira(details.totals.net_total)}`);
  await expect(totals).toContainText(`Genel iskonto${lira(details.totals.document_discount_total)}`);
  for (const share of details.totals.vat_breakdown) {
    await expect(totals).toContainText(`KDV %${share.rate} (matrah ${lira(share.base)})${lira(share.vat)}`);
  }
  await expect(totals).toContainText(`KDV toplamı${lira(details.totals.vat_total)}`);
  await expect(totals).toContainText(`Genel toplam${lira(details.totals.grand_total)}`);
}

test("a quote with lines at KDV 20, 10 and 0 and an overall discount shows the database's per-rate totals, is sent and locked, printed as a PDF and turned into a contract", async ({ page, baseURL }) => {
  // Some fifty steps, two axe runs and two API clients: on the shared 2-core machine each fill takes seconds.
  test.setTimeout(180_000);
  await enterAppAt(page, "/quotes", "satis@demo.test");
  await page.getByRole("link", { name: "Yeni teklif" }).click();
  // Products are managed by whoever edits every quote; a sales member (own scope) only picks them.
  await expect(page.getByRole("button", { name: "Ürünler" })).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: "Yeni teklif" })).toBeVisible({ timeout: 20_000 });

  await page.getByRole("combobox", { name: "Müşteri" }).fill("Işık");
  await page.getByRole("option", { name: "Işık Yazılım A.Ş." }).click();

  // Line 1 at the default KDV (20): 2 × 1.000,50.
  await line(page, 1).getByRole("textbox", { name: "Açıklama" }).fill(`E2E Danışmanlık ${suffix}`);
  await line(page, 1).getByRole("textbox", { name: "Miktar" }).fill("2");
  await line(page, 1).getByRole("textbox", { name: "Birim fiyat" }).fill("1.000,50");
  await expect(line(page, 1).getByRole("combobox", { name: "KDV oranı" })).toHaveValue("20");
  // Line 2 at KDV 10 with a 10 % line discount.
  await page.getByRole("button", { name: "Kalem ekle" }).click();
  await line(page, 2).getByRole("textbox", { name: "Açıklama" }).fill(`E2E Eğitim ${suffix}`);
  await line(page, 2).getByRole("textbox", { name: "Miktar" }).fill("3");
  await line(page, 2).getByRole("textbox", { name: "Birim fiyat" }).fill("250");
  await line(page, 2).getByRole("combobox", { name: "KDV oranı" }).selectOption({ label: "%10" });
  await line(page, 2).getByRole("textbox", { name: "İskonto", exact: true }).fill("10");
  // Line 3 at KDV 0: the exemption reason is asked.
  await page.getByRole("button", { name: "Kalem ekle" }).click();
  await line(page, 3).getByRole("textbox", { name: "Açıklama" }).fill(`E2E İhracat ${suffix}`);
  await line(page, 3).getByRole("textbox", { name: "Birim fiyat" }).fill("500");
  await line(page, 3).getByRole("combobox", { name: "KDV oranı" }).selectOption({ label: "%0" });
  await line(page, 3).getByRole("textbox", { name: "İstisna nedeni" }).fill("KDV Kanunu 11/1-a ihracat istisnası");
  // A 5 % overall discount.
  await page.getByRole("textbox", { name: "Genel iskonto", exact: true }).fill("5");

  // The SQL preview: per line and per rate while typing.
  const editorTotals = page.getByTestId("quote-totals");
  await expect(editorTotals).toContainText("KDV %20 (matrah ₺1.900,95)₺380,19");
  await expect(line(page, 2)).toContainText("Net₺641,25");
  expect(await seriousViolations(page)).toEqual([]);

  // Reordering by keyboard buttons, and back.
  await page.getByRole("button", { name: "3. kalemi yukarı taşı" }).click();
  await expect(line(page, 2).getByRole("textbox", { name: "Açıklama" })).toHaveValue(`E2E İhracat ${suffix}`);
  await page.getByRole("button", { name: "2. kalemi aşağı taşı" }).click();
  await expect(line(page, 3).getByRole("textbox", { name: "Açıklama" })).toHaveValue(`E2E İhracat ${suffix}`);

  // On a phone the editor does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => scrollsSideways(page)).toBe(false);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole("button", { name: "Teklifi oluştur" }).click();
  await expect(page).toHaveURL(/\/quotes\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").pop()!;

  // What the database answers is what the page shows.
  const { client } = await signedInClient(baseURL!, "satis@demo.test");
  const read = async () => {
    const answer = await rpc(client, "get_quote_details", { p_id: id });
    expect(answer).toMatchObject({ success: true });
    return answer as unknown as Details;
  };
  const saved = await read();
  expect(saved.totals.vat_breakdown.map((share) => Number(share.rate))).toEqual([0, 10, 20]);
  // Worked by hand: 2.001,00 + 675,00 + 500,00 less 5 % (158,80 spread by amount), KDV per line.
  expect(saved.totals).toMatchObject({ net_total: "3017.20", vat_total: "444.32", grand_total: "3461.52" });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${saved.quote.quote_number} (rev. 1)`);
  const pageTotals = page.getByTestId("quote-totals");
  await expectTotals(pageTotals, saved);
  // A yes/no field reads as a word, never as "—".
  const vatIncluded = page.locator("dt", { hasText: "Fiyatlara KDV dahil" }).locator("xpath=following-sibling::dd[1]");
  await expect(vatIncluded).toHaveText(saved.quote.prices_include_vat ? "Evet" : "Hayır");

  // Editing the draft: cancelling with a changed header field asks first, as the record forms do;
  // keeping on editing keeps the change, discarding it goes back to the quote unchanged.
  await page.getByRole("button", { name: "Düzenle" }).click();
  await expect(page).toHaveURL(/\?edit=1$/);
  const notes = page.getByRole("textbox", { name: "Notlar" });
  await notes.fill(`E2E not ${suffix}`);
  await page.getByRole("button", { name: "Vazgeç" }).click();
  const unsaved = page.getByRole("dialog", { name: "Değişiklikler atılsın mı?" });
  await expect(unsaved).toContainText("Bu formda kaydedilmemiş değişiklikler var. Kapatırsanız kaybolacak.");
  await unsaved.getByRole("button", { name: "Düzenlemeye devam et" }).click();
  await expect(unsaved).toHaveCount(0);
  await expect(page).toHaveURL(/\?edit=1$/);
  await expect(notes).toHaveValue(`E2E not ${suffix}`);
  await page.getByRole("button", { name: "Vazgeç" }).click();
  await unsaved.getByRole("button", { name: "Değişiklikleri at" }).click();
  await expect(page).toHaveURL(/\/quotes\/[0-9a-f-]{36}$/);
  expect((await read()).quote.updated_at).toBe(saved.quote.updated_at);

  // Sent: locked on the page and in the database.
  await page.getByRole("button", { name: "Gönderildi olarak işaretle" }).click();
  await expect(notification(page, "Teklif gönderildi olarak işaretlendi; artık kilitli.")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Teklif kilitli" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Düzenle" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Kabul edildi" })).toBeVisible();
  const sent = await read();
  expect(sent.quote).toMatchObject({ status: "sent", locked: true });
  await expectTotals(pageTotals, sent);
  expect(await seriousViolations(page)).toEqual([]);
  const edit = await rpc(client, "save_quote", { p_id: id, p_values: { notes: "x" }, p_items: [], p_updated_at: sent.quote.updated_at });
  expect(edit).toMatchObject({ success: false, code: "quote_locked" });

  // The sent quote as a PDF: its Turkish text and the database's totals, read back by pdftotext;
  // then kept among the quote's documents.
  await page.getByRole("tab", { name: "Belgeler" }).click();
  const downloading = page.waitForEvent("download", { timeout: 90_000 });
  await page.getByRole("button", { name: "PDF indir" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${sent.quote.quote_number}.pdf`);
  const folder = mkdtempSync(join(tmpdir(), "quote-pdf-"));
  try {
    const file = join(folder, "quote.pdf");
    await download.saveAs(file);
    const text = execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    const flat = text.replace(/\s+/g, " ");
    expect(flat).toContain(sent.quote.quote_number);
    expect(flat).toContain("Işık Yazılım A.Ş.");
    expect(flat).toContain(`E2E Eğitim ${suffix}`);
    expect(flat).toContain(`E2E İhracat ${suffix}`);
    for (const share of sent.totals.vat_breakdown) {
      expect(text).toMatch(new RegExp(`%${share.rate}\\s+${escape(lira(share.base))}\\s+${escape(lira(share.vat))}`));
    }
    expect(text).toMatch(new RegExp(`Genel Toplam\\s+${escape(lira(sent.totals.grand_total))}`));
    expect(flat).toContain("Üç Bin Dört Yüz Altmış Bir Türk Lirası Elli İki Kuruş");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  await page.getByRole("button", { name: "PDF'i belgelere kaydet" }).click();
  await expect(notification(page, `Teklif ${sent.quote.quote_number} (PDF)`)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("list", { name: "Belgeler" })).toContainText(`Teklif ${sent.quote.quote_number} (PDF)`);
  await page.getByRole("tab", { name: "Teklif", exact: true }).click();

  // The quote page on a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(pageTotals).toBeVisible();
  await expect.poll(() => scrollsSideways(page)).toBe(false);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The sent quote becomes a draft contract with its customer and value.
  await page.getByRole("button", { name: "Sözleşmeye dönüştür" }).click();
  await expect(page).toHaveURL(/\/contracts\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  const contractId = page.url().split("/").pop()!;
  const contract = (await rpc(client, "get_contract_details", { p_id: contractId })) as unknown as {
    contract: { status: string; value: string; vat_amount: string; value_includes_vat: boolean; quote_id: string };
    customer: { name: string };
  };
  // Its value is the quote's net (KDV hariç), its KDV the quote's, stated apart.
  expect(contract).toMatchObject({
    contract: { status: "draft", value: sent.totals.net_total, vat_amount: sent.totals.vat_total, value_includes_vat: false, quote_id: id },
    customer: { name: "Işık Yazılım A.Ş." },
  });
  await expect(page.getByText(/^KDV hariç; ayrıca ₺[\d.,]+ KDV \(KDV dahil ₺[\d.,]+\)$/)).toBeVisible();

  const { client: admin } = await signedInClient(baseURL!, "admin@demo.test");
  expect(await rpc(admin, "delete_contracts", { p_ids: [contractId] })).toMatchObject({ success: true });
  expect(await rpc(admin, "delete_quotes", { p_ids: [id] })).toMatchObject({ success: true });
  await Promise.all([client.auth.signOut({ scope: "local" }), admin.auth.signOut({ scope: "local" })]);
});

test("an admin adds a product, a quote line takes its name, unit, price and KDV, and it is set inactive", async ({ page }) => {
  test.setTimeout(90_000);
  const name = `E2E Ürün ${suffix}`;
  await enterAppAt(page, "/quotes", "admin@demo.test");
  await page.getByRole("button", { name: "Ürünler" }).click();
  const drawer = page.getByRole("dialog", { name: "Ürünler" });
  await drawer.getByRole("button", { name: "Yeni ürün" }).click();
  await drawer.getByRole("button", { name: "Ürünü kaydet" }).click();
  await expect(drawer.getByText("Ürün adı gerekli.")).toBeVisible();
  await drawer.getByRole("textbox", { name: "Ad" }).fill(name);
  await drawer.getByRole("combobox", { name: "Birim", exact: true }).fill("saat");
  await drawer.getByRole("textbox", { name: "Birim fiyat" }).fill("1.234,56");
  await drawer.getByRole("combobox", { name: "KDV oranı" }).selectOption({ label: "%10" });
  await drawer.getByRole("button", { name: "Ürünü kaydet" }).click();
  await expect(notification(page, "Ürün kaydedildi.")).toBeVisible();
  const row = drawer.getByRole("table", { name: "Ürün listesi" }).getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("₺1.234,56");
  await expect(row).toContainText("%10");
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press("Escape");

  await page.goto("/quotes/new");
  await line(page, 1).getByRole("combobox", { name: "Ürün" }).fill(name);
  await page.getByRole("option", { name }).click();
  await expect(line(page, 1).getByRole("textbox", { name: "Açıklama" })).toHaveValue(name);
  await expect(line(page, 1).getByRole("textbox", { name: "Birim fiyat" })).toHaveValue("1234,56");
  await expect(line(page, 1).getByRole("combobox", { name: "KDV oranı" })).toHaveValue("10");
  await expect(line(page, 1).getByRole("combobox", { name: "Birim", exact: true })).toHaveValue("saat");
  await expect(line(page, 1)).toContainText("KDV₺123,46");

  await page.goto("/quotes");
  await page.getByRole("button", { name: "Ürünler" }).click();
  await drawer.getByRole("switch", { name: `${name} ürününü pasifleştir` }).click();
  await expect(drawer.getByRole("table", { name: "Ürün listesi" }).getByRole("row").filter({ hasText: name })).toHaveCount(0);
  await drawer.getByRole("checkbox", { name: "Pasif ürünleri de göster" }).check();
  await expect(drawer.getByRole("switch", { name: `${name} ürününü etkinleştir` })).not.toBeChecked();
});
