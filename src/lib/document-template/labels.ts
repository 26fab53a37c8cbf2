/**
 * The fixed words of a printed quote or contract (table headings, totals, page numbers), in
 * the document's language. The admin preview uses them too, so it shows what the PDF prints.
 */
import type { TotalsRowKey } from "./document-data.ts";
import type { TemplateKind } from "./placeholders.ts";

export type DocumentLanguage = "tr" | "en";

export interface DocumentLabels {
  title: Record<TemplateKind, string>;
  items: {
    position: string;
    description: string;
    quantity: string;
    unitPrice: string;
    discount: string;
    vatRate: string;
    lineNet: string;
    lineVat: string;
    lineGross: string;
  };
  vatBreakdown: { rate: string; base: string; vat: string; withholding: string };
  totals: Record<TotalsRowKey, string>;
  taxOffice: string;
  taxNumber: string;
  mersisNumber: string;
  logo: string;
  /** Under the items table: a 0 % KDV line's exemption reason, a line's KDV withholding. */
  exemptionNote(position: string, reason: string): string;
  withholdingNote(position: string, rate: string, amount: string): string;
  /** Contract types by their key (service, sales, maintenance, license, nda, other). */
  contractTypes: Readonly<Record<string, string>>;
  /** The renewal terms of a contract that renews itself, or of one that does not. */
  renewal(noticeDays: number, termMonths: number): string;
  noRenewal: string;
  page(current: number, count: number): string;
}

export const documentLabels: Record<DocumentLanguage, DocumentLabels> = {
  tr: {
    title: { quote: "TEKLİF", contract: "SÖZLEŞME" },
    items: {
      position: "Sıra",
      description: "Açıklama",
      quantity: "Miktar",
      unitPrice: "Birim Fiyat",
      discount: "İskonto",
      vatRate: "KDV %",
      lineNet: "Tutar",
      lineVat: "KDV",
      lineGross: "Toplam",
    },
    vatBreakdown: { rate: "KDV Oranı", base: "Matrah", vat: "Hesaplanan KDV", withholding: "Tevkifat" },
    totals: {
      gross: "Brüt Tutar",
      line_discounts: "Satır İskontoları",
      document_discount: "Genel İskonto",
      net: "Ara Toplam (KDV Hariç)",
      vat: "Toplam KDV",
      withholding: "KDV Tevkifatı",
      total: "Genel Toplam",
      total_try: "TL Karşılığı",
    },
    taxOffice: "Vergi Dairesi",
    taxNumber: "VKN",
    mersisNumber: "MERSİS No",
    logo: "Logo",
    exemptionNote: (position, reason) => `${position}. satır KDV istisna/muafiyet sebebi: ${reason}`,
    withholdingNote: (position, rate, amount) => `${position}. satır KDV tevkifatı (${rate}): ${amount}`,
    contractTypes: { service: "Hizmet", sales: "Satış", maintenance: "Bakım", license: "Lisans", nda: "Gizlilik", other: "Diğer" },
    renewal: (noticeDays, termMonths) =>
      `Taraflardan biri bitiş tarihinden en az ${noticeDays} gün önce bildirmedikçe sözleşme ${termMonths} ay uzar.`,
    noRenewal: "Sözleşme kendiliğinden yenilenmez.",
    page: (current, count) => `Sayfa ${current} / ${count}`,
  },
  en: {
    title: { quote: "QUOTE", contract: "CONTRACT" },
    items: {
      position: "No.",
      description: "Description",
      quantity: "Quantity",
      unitPrice: "Unit price",
      discount: "Discount",
      vatRate: "VAT %",
      lineNet: "Amount",
      lineVat: "VAT",
      lineGross: "Total",
    },
    vatBreakdown: { rate: "VAT rate", base: "Taxable amount", vat: "VAT", withholding: "Withheld" },
    totals: {
      gross: "Gross amount",
      line_discounts: "Line discounts",
      document_discount: "Document discount",
      net: "Subtotal (excl. VAT)",
      vat: "Total VAT",
      withholding: "VAT withholding",
      total: "Grand total",
      total_try: "In Turkish lira",
    },
    taxOffice: "Tax office",
    taxNumber: "Tax ID (VKN)",
    mersisNumber: "MERSİS no.",
    logo: "Logo",
    exemptionNote: (position, reason) => `Line ${position} VAT exemption reason: ${reason}`,
    withholdingNote: (position, rate, amount) => `Line ${position} VAT withholding (${rate}): ${amount}`,
    contractTypes: { service: "Service", sales: "Sales", maintenance: "Maintenance", license: "Licence", nda: "Non-disclosure", other: "Other" },
    renewal: (noticeDays, termMonths) =>
      `Unless either party gives notice at least ${noticeDays} days before the end date, the contract renews for ${termMonths} months.`,
    noRenewal: "The contract does not renew itself.",
    page: (current, count) => `Page ${current} of ${count}`,
  },
};
