import { describe, expect, it } from "vitest";
import { contractPdfInput, type ContractPdfSource } from "@/lib/pdf/document-input.ts";
import { defaultTemplateBodies } from "@/lib/pdf/default-templates.ts";
import { renderTemplate } from "./render.ts";

const organization = { name: "Demo Yazılım A.Ş.", address: "Büyükdere Cad. 185, İstanbul", tax_office: "Şişli", tax_number: "1234567890" };
const today = new Date(2026, 0, 10);

const printed = (
  contract: object,
  customer: ContractPdfSource["customer"] = { name: "Işık Yazılım A.Ş.", address: "Bağdat Cad. 1", city: "İstanbul" },
  org = organization,
  language: "tr" | "en" = "tr",
) => {
  const input = contractPdfInput(
    { contract: { contract_number: "SZL-2026-00001", title: "Bakım", contract_type: "maintenance", currency: "TRY", ...contract }, customer, contact: null },
    org,
    language,
    today,
  );
  return renderTemplate(defaultTemplateBodies.contract, input.values)
    .map((segment) => ("text" in segment ? segment.text : ""))
    .join("");
};

describe("the default contract template", () => {
  it("states a value without KDV and its KDV apart, agreeing with the quote's net and KDV to the kuruş", () => {
    const text = printed({ value: "15006.00", value_includes_vat: false, vat_amount: "3001.20", total_with_vat: "18007.20", start_date: "2026-02-01", end_date: "2027-01-31" });
    expect(text).toContain("Sözleşme bedeli KDV hariç ₺15.006,00 (Yalnız: On Beş Bin Altı Türk Lirası) olup bu bedele ayrıca ₺3.001,20 KDV uygulanır.");
    expect(text).toContain("KDV dahil toplam bedel ₺18.007,20 tutarındadır.");
    expect(text).toContain("Sözleşme 1 Şubat 2026 tarihinde başlar ve 31 Ocak 2027 tarihinde sona erer.");
    expect(text).toContain("Büyükdere Cad. 185, İstanbul adresinde bulunan Demo Yazılım A.Ş. (Vergi Dairesi / No: Şişli / 1234567890)");
    expect(text).toContain("Bağdat Cad. 1, İstanbul adresinde bulunan Işık Yazılım A.Ş. (bundan sonra");
    expect(text).not.toContain("vergiler ayrıca hesaplanır");
  });

  it("states the KDV withheld (tevkifat), its ratio and what the customer pays, as the quote's totals give them", () => {
    // A quote: net 11,990.13, KDV 2,398.03, 7/10 withheld 1,678.62, grand total 12,709.54.
    const contract = { value: "11990.13", value_includes_vat: false, vat_amount: "2398.03", total_with_vat: "14388.16",
      withholding_amount: "1678.62", withholding_rate: "7/10", payable_total: "12709.54" };
    const text = printed(contract);
    expect(text).toContain("bu bedele ayrıca ₺2.398,03 KDV uygulanır. KDV dahil toplam bedel ₺14.388,16 tutarındadır.");
    expect(text).toContain("Bu KDV'nin 7/10 oranında ₺1.678,62 tutarındaki kısmı Müşteri tarafından tevkif edilir (KDV tevkifatı); Müşterinin ödeyeceği tutar ₺12.709,54 tutarındadır.");
    expect(printed({ ...contract, withholding_rate: null })).toContain("Bu KDV'nin ₺1.678,62 tutarındaki kısmı Müşteri tarafından tevkif edilir");
    expect(printed(contract, undefined, organization, "en")).toContain(
      "The total including VAT is TRY\u00a014,388.16. Of this VAT, TRY\u00a01,678.62 (7/10) is withheld by the customer (VAT withholding); the amount payable by the customer is TRY\u00a012,709.54.",
    );
    expect(printed({ ...contract, withholding_amount: null, payable_total: "14388.16" })).not.toContain("tevkif");
  });

  it("gives the amount in words in the document's language", () => {
    const contract = { value: "15006.00", value_includes_vat: false, vat_amount: "3001.20", total_with_vat: "18007.20" };
    expect(printed(contract, undefined, organization, "en")).toContain("TRY\u00a015,006.00 (in words: Fifteen Thousand Six Turkish Lira)");
    expect(printed(contract, undefined, organization, "en")).not.toMatch(/Türk Lirası|Bin/);
    expect(printed(contract)).toContain("₺15.006,00 (Yalnız: On Beş Bin Altı Türk Lirası)");
  });

  it("never says taxes come on top of a KDV-included value", () => {
    const text = printed({ value: "1200.00", value_includes_vat: true, vat_amount: "200.00", total_with_vat: "1200.00" });
    expect(text).toContain("Sözleşme bedeli KDV dahil ₺1.200,00 (Yalnız: Bin İki Yüz Türk Lirası) olup bu tutarın ₺200,00 kadarı KDV'dir.");
    expect(text).not.toMatch(/vergiler ayrıca|KDV ayrıca|ayrıca ₺/);
    expect(printed({ value: "1200.00", value_includes_vat: true })).toContain("Sözleşme bedeli KDV dahil ₺1.200,00 (Yalnız: Bin İki Yüz Türk Lirası) tutarındadır.");
  });

  it("says KDV is calculated separately only for a value without KDV whose amount is not stated", () => {
    expect(printed({ value: "500" })).toContain("Sözleşme bedeli KDV hariç ₺500,00 (Yalnız: Beş Yüz Türk Lirası) olup KDV ayrıca hesaplanır.");
    expect(printed({ value: "0" })).toContain("Bu sözleşme için bir bedel belirlenmemiştir.");
  });

  it("prints no empty gaps when the address, the dates or the signatures are missing", () => {
    const text = printed({ value: "0" }, { name: "Adressiz Ltd." }, { name: "Demo Yazılım A.Ş." } as typeof organization);
    expect(text).toContain("Bu sözleşme, Demo Yazılım A.Ş. (bundan sonra \"Şirket\") ile Adressiz Ltd. (bundan sonra \"Müşteri\")");
    expect(text).toContain("Sözleşme taraflarca imzalandığı tarihte yürürlüğe girer; süresi taraflarca ayrıca belirlenir.");
    expect(text).toContain("İmza tarihi: ..... / ..... / ..........");
    expect(text).toContain("Müşteri adına: Adressiz Ltd.");
    expect(text).not.toMatch(/ adresinde bulunan |tarihinde başlar ve\s+tarihinde|,\s*\n|\(\s*\)|:\s*\n/);
    expect(printed({ start_date: "2026-02-01" })).toContain("Sözleşme 1 Şubat 2026 tarihinde başlar; bitiş tarihi taraflarca ayrıca belirlenir.");
    expect(printed({ end_date: "2027-01-31" })).toContain("Sözleşme taraflarca imzalandığı tarihte başlar ve 31 Ocak 2027 tarihinde sona erer.");
    expect(printed({}, null)).toContain("ile — (bundan sonra \"Müşteri\")");
  });
});
