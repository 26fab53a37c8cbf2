/**
 * The template preview's data: the organization's own details (every organization.*
 * placeholder and the company's party and signatory in the contract clauses, as its documents
 * print them; a sample company when none is given) with a sample customer, two-line quote
 * (20% KDV) and contract, dated from `today`. Amounts are fixed text, as the database would
 * give them formatted: nothing is added up here.
 */
import { amountInWordsTr } from "@/lib/money/amount-in-words.ts";
import { partyClause, signatoryClause, termClause, valueClause } from "./contract-clauses.ts";
import type { DocumentData } from "./document-data.ts";
import { organizationValues, type OrganizationDetails } from "./organization.ts";
import type { MailPlaceholder } from "./mail-placeholders.ts";
import type { TextPlaceholder } from "./placeholders.ts";

const day = new Intl.DateTimeFormat("tr-TR", { dateStyle: "long" });

const addDays = (date: Date, days: number) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);

/** Sample data has a value for every text placeholder. */
export interface SampleData extends DocumentData {
  values: Readonly<Record<TextPlaceholder, string>>;
}

/** The sample sender; the preview and the sample PDF use the organization's own details when it has them. */
export const sampleOrganization: OrganizationDetails = {
  name: "Demo Yazılım A.Ş.",
  legal_name: "Demo Yazılım Anonim Şirketi",
  address: "Büyükdere Cad. No: 185",
  district: "Şişli",
  province: "İstanbul",
  tax_office: "Şişli",
  tax_number: "4540536920",
  mersis_number: "0454053692000015",
  phone: "+902125550123",
  email: "satis@demoyazilim.com.tr",
  website: "www.demoyazilim.com.tr",
  bank_accounts: [{ iban: "TR330006100519786457841326", bank_name: "Ziraat Bankası" }],
};

export function sampleData(today: Date, organization: OrganizationDetails = sampleOrganization): SampleData {
  const values: Record<TextPlaceholder, string> = {
    ...organizationValues(organization),
    "customer.name": "Anadolu Yapı Malzemeleri Ltd. Şti.",
    "customer.tax_number": "9876543210",
    "customer.tax_office": "Kadıköy",
    "customer.address": "Atatürk Cad. No: 12, Kadıköy, İstanbul",
    "contact.name": "Zeynep Kaya",
    "contact.email": "zeynep.kaya@anadoluyapi.com.tr",
    "contact.phone": "+90 532 555 44 33",
    "quote.number": "TKL-2026-00042",
    "quote.revision": "1",
    "quote.date": day.format(today),
    "quote.valid_until": day.format(addDays(today, 30)),
    "quote.currency": "TRY",
    "quote.exchange_rate": "",
    "quote.payment_terms": "Fatura tarihinden itibaren 30 gün içinde havale/EFT ile.",
    "quote.notes": "Fiyatlarımıza kurulum dahildir.",
    "totals.gross": "₺57.500,00",
    "totals.line_discounts": "",
    "totals.document_discount": "",
    "totals.net": "₺57.500,00",
    "totals.vat": "₺11.500,00",
    "totals.withholding": "",
    "totals.total": "₺69.000,00",
    "totals.total_try": "",
    "totals.total_in_words": amountInWordsTr("69000.00", "TRY"),
    "contract.number": "SZL-2026-00007",
    "contract.title": "Yazılım Hizmet Sözleşmesi",
    "contract.type": "Hizmet",
    "contract.start_date": day.format(addDays(today, 7)),
    "contract.end_date": day.format(addDays(today, 372)),
    "contract.value": "₺120.000,00",
    "contract.value_in_words": amountInWordsTr("120000.00", "TRY"),
    "contract.customer_signed_on": day.format(addDays(today, 3)),
    "contract.company_signed_on": day.format(addDays(today, 2)),
    "contract.renewal_terms": "Taraflardan biri bitişten 30 gün önce bildirmedikçe bir yıl uzar.",
    "contract.vat_amount": "₺24.000,00",
    "contract.total_with_vat": "₺144.000,00",
    "contract.company_party": partyClause("tr", organization),
    "contract.customer_party": partyClause("tr", {
      name: "Anadolu Yapı Malzemeleri Ltd. Şti.",
      address: "Atatürk Cad. No: 12, Kadıköy, İstanbul",
      tax_office: "Kadıköy",
      tax_number: "9876543210",
    }),
    "contract.term": termClause("tr", day.format(addDays(today, 7)), day.format(addDays(today, 372))),
    "contract.value_terms": valueClause("tr", {
      none: false,
      value: "₺120.000,00",
      inWords: amountInWordsTr("120000.00", "TRY"),
      includesVat: false,
      vat: "₺24.000,00",
      vatIsZero: false,
      totalWithVat: "₺144.000,00",
    }),
    "contract.company_signatory": signatoryClause("Selim Satış", organization.name),
    "contract.customer_signatory": signatoryClause("Zeynep Kaya", "Anadolu Yapı Malzemeleri Ltd. Şti."),
    "owner.name": "Selim Satış",
    today: day.format(today),
  };
  return {
    values,
    items: [
      {
        position: 1,
        description: "CRM Kurumsal Lisans (yıllık, kullanıcı başına)",
        quantity: "10 adet",
        unit: "adet",
        unit_price: "₺4.500,00",
        discount: "",
        vat_rate: "%20",
        line_net: "₺45.000,00",
        line_vat: "₺9.000,00",
        line_gross: "₺54.000,00",
      },
      {
        position: 2,
        description: "Kurulum ve eğitim hizmeti",
        quantity: "1 adet",
        unit: "adet",
        unit_price: "₺12.500,00",
        discount: "",
        vat_rate: "%20",
        line_net: "₺12.500,00",
        line_vat: "₺2.500,00",
        line_gross: "₺15.000,00",
      },
    ],
    vatBreakdown: [{ rate: "%20", base: "₺57.500,00", vat: "₺11.500,00" }],
  };
}

/** The e-mail templates' preview values: the sample record's, with a sample sender and reset link. */
export function sampleMailValues(today: Date, organization: OrganizationDetails = sampleOrganization): Readonly<Record<TextPlaceholder | MailPlaceholder, string>> {
  return {
    ...sampleData(today, organization).values,
    "sender.name": "Selim Satış",
    "sender.email": organization.email || "selim.satis@demoyazilim.com.tr",
    "sender.phone": "+90 532 555 12 34",
    "user.name": "Ayşe Yılmaz",
    "reset.link": "https://crm.example.com/reset-password#token=ornek",
    "reset.minutes": "30",
    "digest.count": "2",
    "digest.items":
      "• Size bir görev atandı: Teklifi ara\n  https://crm.example.com/tasks/…\n• Görevin zamanı geçti: Sözleşmeyi gönder\n  https://crm.example.com/tasks/…",
    "digest.link": "https://crm.example.com/",
  };
}
