import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { documentDefinition, type DocumentPdfInput } from "./document-definition.ts";
import { contractPdfInput, quotePdfInput, type QuotePdfSource } from "./document-input.ts";
import { renderDocumentPdfBytes } from "./render-document-pdf.node.ts";

// Rendered in Node (pdfmake's Node build, Roboto from its package) and read back with
// pdftotext from poppler-utils, as a person's PDF reader would show the text.
const folder = mkdtempSync(join(tmpdir(), "crm-pdf-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
async function pdfText(input: DocumentPdfInput, template: { body: string } | null): Promise<{ text: string; bytes: Uint8Array; info: string }> {
  const bytes = await renderDocumentPdfBytes(input, template);
  const file = join(folder, `document-${++files}.pdf`);
  writeFileSync(file, bytes);
  return {
    bytes,
    text: execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" }),
    info: execFileSync("pdfinfo", ["-enc", "UTF-8", file], { encoding: "utf8" }),
  };
}

// A 1×1 red PNG.
const logo =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

const organization = {
  name: "Işıklı Çözüm Yazılım A.Ş.",
  legal_name: "Işıklı Çözüm Yazılım ve Danışmanlık Anonim Şirketi",
  address: "Büyükdere Cad. No: 1",
  district: "Şişli",
  province: "İstanbul",
  tax_office: "Şişli",
  tax_number: "4540536920",
  mersis_number: "0454053692000015",
  phone: "+902125550123",
  email: "satis@isikli.com.tr",
  website: "www.isikli.com.tr",
  bank_accounts: [
    { iban: "TR330006100519786457841326", bank_name: "Ziraat Bankası" },
    { iban: "TR180006200119000006672315", bank_name: null },
  ],
  logo,
};

/** Three lines at 20, 10 and 0 % KDV with Turkish text; the totals as SQL computes them. */
const quote: QuotePdfSource = {
  quote: {
    quote_number: "TKL-2026-00042",
    revision: 2,
    quote_date: "2026-01-15",
    valid_until: "2026-02-14",
    currency: "TRY",
    exchange_rate: null,
    payment_terms: "Peşin ödeme; ÖDEME GÜNÜ Çarşamba",
    notes: "Ğ ğ Ü ü Ş ş İ ı Ö ö Ç ç ₺",
    owner_name: "Şükrü Öztürk",
  },
  items: [
    {
      position: 1, description: "Yazılım lisansı (yıllık, İstanbul şubesi)", quantity: "10", unit: "adet", unit_price: "1000.00",
      discount_type: "percent", discount_value: "10", vat_rate: "20", line_net: "9000.00", line_vat: "1800.00", line_gross: "10800.00",
    },
    {
      position: 2, description: "Kitap: Güzel Çiçekler Öğretmeni", quantity: "3", unit: "paket", unit_price: "250.00",
      discount_type: null, discount_value: null, vat_rate: "10", line_net: "750.00", line_vat: "75.00", line_gross: "825.00",
    },
    {
      position: 3, description: "İhracat kaydıyla teslim (KDV istisnası)", quantity: "1.5", unit: "saat", unit_price: "2000.00",
      discount_type: null, discount_value: null, vat_rate: "0", line_net: "3000.00", line_vat: "0.00", line_gross: "3000.00",
      vat_exemption_reason: "3065 sayılı KDV Kanunu 11/1-a: ihracat teslimi",
    },
  ],
  totals: {
    gross_total: "13750.00",
    line_discount_total: "1000.00",
    document_discount_total: "0.00",
    net_total: "12750.00",
    vat_breakdown: [
      { rate: "20", base: "9000.00", vat: "1800.00" },
      { rate: "10", base: "750.00", vat: "75.00" },
      { rate: "0", base: "3000.00", vat: "0.00" },
    ],
    vat_total: "1875.00",
    withholding_total: "0.00",
    grand_total: "14625.00",
    grand_total_try: "14625.00",
  },
  customer: { name: "Güneş Işık Ürünleri Ltd. Şti.", tax_number: "9876543210", tax_office: "Kadıköy", address: "Moda Cad. 5", district: "Kadıköy", city: "İstanbul" },
  contact: { name: "Ayşe Çağlar", email: "ayse@gunes.com.tr", phone: "+905321112233" },
};

const today = new Date(2026, 0, 15, 12);
const squash = (text: string) => text.replace(/\s+/g, " ");

describe("renderDocumentPdf (Node)", () => {
  it("prints a quote of three lines at 20/10/0 % KDV with Turkish letters, the KDV split, the totals and the amount in words", async () => {
    const { text, bytes, info } = await pdfText(quotePdfInput(quote, organization, "tr", today), null);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
    const flat = squash(text);
    // Turkish letters and the lira sign, from the organization, the customer and the lines.
    for (const phrase of [
      "Işıklı Çözüm Yazılım A.Ş.",
      "Güneş Işık Ürünleri Ltd. Şti.",
      "Moda Cad. 5, Kadıköy, İstanbul",
      "Ayşe Çağlar",
      "Yazılım lisansı (yıllık, İstanbul şubesi)",
      "Kitap: Güzel Çiçekler Öğretmeni",
      "İhracat kaydıyla teslim (KDV istisnası)",
      "Ğ ğ Ü ü Ş ş İ ı Ö ö Ç ç ₺",
      "Peşin ödeme; ÖDEME GÜNÜ Çarşamba",
      "Şükrü Öztürk",
      "Vergi Dairesi: Şişli",
      // The sender: legal name, address with district/province, VKN, MERSİS, phone, web, IBANs.
      "Işıklı Çözüm Yazılım ve Danışmanlık Anonim Şirketi",
      "Büyükdere Cad. No: 1, Şişli/İstanbul",
      "VKN: 4540536920",
      "MERSİS No: 0454053692000015",
      "+90 212 555 01 23",
      "www.isikli.com.tr",
      "Ziraat Bankası IBAN: TR33 0006 1005 1978 6457 8413 26",
      "IBAN: TR18 0006 2001 1900 0006 6723 15",
      // The contact person and the 0 % line's exemption reason.
      "İlgili Kişi: Ayşe Çağlar +90 532 111 22 33 ayse@gunes.com.tr",
      "3. satır KDV istisna/muafiyet sebebi: 3065 sayılı KDV Kanunu 11/1-a: ihracat teslimi",
    ]) {
      expect(flat).toContain(phrase);
    }
    // The header and the built-in body's fields.
    expect(flat).toContain("TEKLİF");
    expect(flat).toContain("TKL-2026-00042");
    expect(flat).toContain("Revizyon 2");
    expect(flat).toContain("15 Ocak 2026");
    expect(flat).toContain("14 Şubat 2026");
    // Lines: quantity with unit, unit price, line discount, rate, net, KDV, gross.
    expect(text).toMatch(/10 adet\s+₺1\.000,00\s+%10\s+%20\s+₺9\.000,00\s+₺1\.800,00\s+₺10\.800,00/);
    expect(text).toMatch(/3 paket\s+₺250,00\s+%10\s+₺750,00\s+₺75,00\s+₺825,00/);
    expect(text).toMatch(/1,5 saat\s+₺2\.000,00\s+%0\s+₺3\.000,00\s+₺0,00\s+₺3\.000,00/);
    // The KDV split per rate.
    expect(text).toMatch(/%20\s+₺9\.000,00\s+₺1\.800,00\n/);
    expect(text).toMatch(/%10\s+₺750,00\s+₺75,00\n/);
    expect(text).toMatch(/%0\s+₺3\.000,00\s+₺0,00\n/);
    // The totals, right-aligned rows with their labels; no rows for what is zero.
    expect(text).toMatch(/Brüt Tutar\s+₺13\.750,00/);
    expect(text).toMatch(/Satır İskontoları\s+₺1\.000,00/);
    expect(text).toMatch(/Ara Toplam \(KDV Hariç\)\s+₺12\.750,00/);
    expect(text).toMatch(/Toplam KDV\s+₺1\.875,00/);
    expect(text).toMatch(/Genel Toplam\s+₺14\.625,00/);
    expect(text).not.toContain("Genel İskonto");
    expect(text).not.toContain("KDV Tevkifatı");
    expect(text).not.toContain("TL Karşılığı");
    // The amount in words.
    expect(flat).toContain("Yalnız: On Dört Bin Altı Yüz Yirmi Beş Türk Lirası");
    // Page numbers and metadata.
    expect(text).toContain("Sayfa 1 / 1");
    expect(info).toMatch(/Title:\s+TEKLİF TKL-2026-00042/);
    expect(info).toMatch(/Author:\s+Işıklı Çözüm Yazılım A\.Ş\./);
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
  });

  it("uses the organization's template and keeps unknown placeholders and markup as literal text", async () => {
    const body = [
      "Sayın {{customer.name}},",
      "<b>kalın değil</b> <script>alert(1)</script> <img src=https://example.com/x.png>",
      "{{constructor}} {{__proto__}} {{constructor.constructor('return 1')()}} {{ toString }}",
      "Toplam: {{totals.total}} — {{totals.total_in_words}}",
    ].join("\n");
    const { text } = await pdfText(quotePdfInput(quote, organization, "tr", today), { body });
    const flat = squash(text);
    expect(flat).toContain("Sayın Güneş Işık Ürünleri Ltd. Şti.,");
    expect(flat).toContain("<b>kalın değil</b> <script>alert(1)</script> <img src=https://example.com/x.png>");
    expect(flat).toContain("{{constructor}} {{__proto__}} {{constructor.constructor('return 1')()}} {{ toString }}");
    expect(flat).toContain("Toplam: ₺14.625,00 — On Dört Bin Altı Yüz Yirmi Beş Türk Lirası");
    // Only the template's text: no built-in body, no table.
    expect(flat).not.toContain("Ödeme Koşulları");
    expect(flat).not.toContain("Birim Fiyat");
  });

  it("repeats the header on every page and numbers the pages of a long quote", async () => {
    const items = Array.from({ length: 120 }, (_, index) => ({ ...quote.items[index % 3], position: index + 1 }));
    const { text } = await pdfText(quotePdfInput({ ...quote, items }, organization, "tr", today), null);
    const pages = text.split("\f").filter((page) => page.trim() !== "");
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((page, index) => {
      expect(page).toContain(`Sayfa ${index + 1} / ${pages.length}`);
      expect(page).toContain("Işıklı Çözüm Yazılım A.Ş.");
      // The table's heading comes back on each page it continues on.
      if (index < pages.length - 1) expect(page).toContain("Birim Fiyat");
    });
  });

  it("prints a foreign-currency quote with its TRY equivalent, euro words and withholding", async () => {
    const euro: QuotePdfSource = {
      ...quote,
      items: quote.items.map((item) => (item.position === 1 ? { ...item, withholding_rate: "5/10", line_withholding: "540.00" } : item)),
      quote: { ...quote.quote, currency: "EUR", exchange_rate: "35.123456" },
      totals: { ...quote.totals, withholding_total: "540.00", document_discount_total: "100.00", grand_total: "14085.50", grand_total_try: "494730.61" },
    };
    const { text } = await pdfText(quotePdfInput(euro, organization, "tr", today), null);
    expect(text).toMatch(/Genel İskonto\s+€100,00/);
    expect(text).toMatch(/KDV Tevkifatı\s+€540,00/);
    expect(text).toMatch(/Genel Toplam\s+€14\.085,50/);
    expect(text).toMatch(/TL Karşılığı\s+₺494\.730,61/);
    expect(squash(text)).toContain("On Dört Bin Seksen Beş Avro Elli Sent");
    // Which line the withholding is on, with its ratio.
    expect(squash(text)).toContain("1. satır KDV tevkifatı (5/10): €540,00");
  });

  it("prints a contract from the built-in contract body", async () => {
    const input = contractPdfInput(
      {
        contract: {
          contract_number: "SZL-2026-00007",
          title: "Yazılım Bakım Sözleşmesi",
          contract_type: "maintenance",
          start_date: "2026-02-01",
          end_date: "2027-01-31",
          value: "120000.50",
          currency: "TRY",
          customer_signed_on: "2026-01-20",
          company_signed_on: "2026-01-19",
          auto_renew: true,
          renewal_notice_days: 45,
          renewal_term_months: 12,
          owner_name: "Şükrü Öztürk",
        },
        customer: quote.customer,
        contact: quote.contact,
      },
      { ...organization, logo: null },
      "tr",
      today,
    );
    const { text, info } = await pdfText(input, null);
    const flat = squash(text);
    expect(flat).toContain("SÖZLEŞME");
    expect(flat).toContain("Yazılım Bakım Sözleşmesi");
    expect(flat).toContain("Sözleşme Türü: Bakım");
    expect(flat).toContain("1 Şubat 2026 tarihinde başlar ve 31 Ocak 2027 tarihinde sona erer");
    expect(flat).toContain("₺120.000,50 (Yalnız: Yüz Yirmi Bin Türk Lirası Elli Kuruş)");
    expect(flat).toContain("en az 45 gün önce bildirmedikçe sözleşme 12 ay uzar");
    expect(flat).toContain("İmza tarihi: 19 Ocak 2026");
    expect(flat).toContain("İmza tarihi: 20 Ocak 2026");
    expect(text).toContain("Sayfa 1 / 1");
    expect(info).toMatch(/Title:\s+SÖZLEŞME SZL-2026-00007/);
  });
});

describe("documentDefinition", () => {
  const input = quotePdfInput(quote, organization, "tr", today);

  it("embeds a PNG or JPEG data URL as the logo and nothing else (no paths, no remote addresses, no SVG)", () => {
    expect(documentDefinition(input, null).images).toEqual({ logo });
    for (const other of [
      "https://example.com/logo.png",
      "/etc/passwd",
      "file:///etc/passwd",
      "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=",
      "data:image/png;base64,AAAA\n/etc/passwd",
      "",
    ]) {
      expect(documentDefinition({ ...input, organization: { ...organization, logo: other } }, null).images, other).toEqual({});
    }
  });

  it("puts the logo where {{organization.logo}} stands and nothing when there is none", () => {
    const withLogo = documentDefinition(input, { body: "{{organization.logo}}Metin" }).content;
    expect(withLogo[0]).toMatchObject({ image: "logo" });
    const without = documentDefinition({ ...input, organization: { ...organization, logo: null } }, { body: "{{organization.logo}}Metin" }).content;
    expect(without[0]).toBe("");
  });

  it("passes template text to pdfmake as plain strings only", () => {
    const definition = documentDefinition(input, { body: "{{customer.name}} <i>x</i> {{nope}}" });
    expect(definition.content).toEqual([
      { text: "Güneş Işık Ürünleri Ltd. Şti. <i>x</i> ", preserveLeadingSpaces: true },
      { text: "{{nope}}", preserveLeadingSpaces: true },
    ]);
  });

  it("falls back to the built-in body for a blank template", () => {
    const builtIn = documentDefinition(input, null).content;
    expect(documentDefinition(input, { body: "  \n " }).content).toEqual(builtIn);
  });
});
