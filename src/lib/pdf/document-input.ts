/**
 * From what the database answers (get_quote_details, get_contract_details) to what a PDF
 * prints: every amount formatted from its exact decimal string by Intl (no float, no
 * arithmetic: totals are SQL's), dates as calendar dates in the document's language, the
 * amount in words (in the document's language), the contract's type and renewal terms in words.
 */
import type { DocumentItemRow } from "@/lib/document-template/document-data.ts";
import { documentLabels, type DocumentLanguage } from "@/lib/document-template/labels.ts";
import type { TextPlaceholder } from "@/lib/document-template/placeholders.ts";
import { printedPhone } from "@/lib/document-template/organization.ts";
import { amountInWords } from "@/lib/money/amount-in-words.ts";
import { missingValue, partyClause, signatoryClause, signatureDateBlank, termClause, valueClause } from "@/lib/document-template/contract-clauses.ts";
import type { DocumentPdfInput } from "./document-definition.ts";

type Decimal = string;
type Text = string | null | undefined;

/** The parts of get_quote_details a PDF prints. */
export interface QuotePdfSource {
  quote: {
    quote_number: Text;
    revision: number;
    quote_date: Text;
    valid_until: Text;
    currency: string;
    exchange_rate?: Text;
    payment_terms: Text;
    notes: Text;
    owner_name: Text;
  };
  items: readonly {
    position: number;
    description: Text;
    quantity: Decimal;
    unit: Text;
    unit_price: Decimal;
    discount_type: "percent" | "amount" | null;
    discount_value?: Text;
    vat_rate: Decimal;
    /** Required by the quote editor for a 0 % line; printed under the items table. */
    vat_exemption_reason?: Text;
    /** Tevkifat ratio ("7/10") and the KDV it withholds. */
    withholding_rate?: Text;
    line_withholding?: Text;
    line_net: Decimal;
    line_vat: Decimal;
    line_gross: Decimal;
  }[];
  totals: {
    gross_total: Decimal;
    line_discount_total: Decimal;
    document_discount_total: Decimal;
    net_total: Decimal;
    vat_breakdown: readonly { rate: Decimal; base: Decimal; vat: Decimal; withholding?: Text }[];
    vat_total: Decimal;
    withholding_total: Decimal;
    grand_total: Decimal;
    grand_total_try?: Text;
  };
  customer: Party | null;
  contact: { name: Text; email?: Text; phone?: Text } | null;
}

/** The parts of get_contract_details a PDF prints. */
export interface ContractPdfSource {
  contract: {
    contract_number: Text;
    title: string;
    contract_type?: Text;
    start_date?: Text;
    end_date?: Text;
    value?: Text;
    /** Whether value includes KDV; the KDV stated with it and the value with its KDV (SQL's sum), decimal strings. */
    value_includes_vat?: boolean | null;
    vat_amount?: Text;
    total_with_vat?: Text;
    /** The KDV withheld (tevkifat) and its ratio; what the customer pays (SQL's: total with KDV less the withheld). */
    withholding_amount?: Text;
    withholding_rate?: Text;
    payable_total?: Text;
    currency?: Text;
    customer_signed_on?: Text;
    company_signed_on?: Text;
    auto_renew?: boolean | null;
    renewal_notice_days?: number | null;
    renewal_term_months?: number | null;
    owner_name?: Text;
  };
  customer: Party | null;
  contact: { name: Text; email?: Text; phone?: Text } | null;
}

interface Party {
  name: Text;
  tax_number?: Text;
  tax_office?: Text;
  address?: Text;
  district?: Text;
  city?: Text;
}

type StringNumeric = `${number}`;

const locales: Record<DocumentLanguage, string> = { tr: "tr-TR", en: "en-GB" };
const isZero = (value: Text) => !value || /^-?0*(\.0*)?$/.test(value);

/** Formatting of exact decimals and calendar dates for one document language. */
function formatters(language: DocumentLanguage) {
  const locale = locales[language];
  const money = (value: Text, currency: string): string => {
    if (value === null || value === undefined || value === "") return "";
    try {
      return new Intl.NumberFormat(locale, { style: "currency", currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value as StringNumeric);
    } catch {
      return `${new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value as StringNumeric)} ${currency}`;
    }
  };
  const decimal = (value: Text, maxFraction: number): string =>
    value === null || value === undefined || value === "" ? "" : new Intl.NumberFormat(locale, { maximumFractionDigits: maxFraction }).format(value as StringNumeric);
  const rate = (value: Text) => (language === "tr" ? `%${decimal(value, 2)}` : `${decimal(value, 2)}%`);
  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" });
  // A calendar date ("2026-01-15", or the date part of a timestamp), never shifted by time zones.
  const date = (value: Text): string => {
    const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value ?? "");
    return match ? dateFormat.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))) : "";
  };
  return { money, decimal, rate, date };
}

const text = (value: Text) => value ?? "";
/** The local calendar day of `moment` as "YYYY-MM-DD" (today where the document is made). */
const localDay = (moment: Date) =>
  `${moment.getFullYear()}-${String(moment.getMonth() + 1).padStart(2, "0")}-${String(moment.getDate()).padStart(2, "0")}`;
const joined = (...parts: Text[]) => parts.filter((part): part is string => !!part && part.trim() !== "").join(", ");

function partyValues(customer: Party | null, contact: QuotePdfSource["contact"]): Partial<Record<TextPlaceholder, string>> {
  return {
    "customer.name": text(customer?.name),
    "customer.tax_number": text(customer?.tax_number),
    "customer.tax_office": text(customer?.tax_office),
    "customer.address": joined(customer?.address, customer?.district, customer?.city),
    "contact.name": text(contact?.name),
    "contact.email": text(contact?.email),
    "contact.phone": printedPhone(contact?.phone),
  };
}

/** A quote's PDF input. `today` fills {{today}}. */
export function quotePdfInput(
  source: QuotePdfSource,
  organization: DocumentPdfInput["organization"],
  language: DocumentLanguage = "tr",
  today: Date = new Date(),
): DocumentPdfInput {
  const format = formatters(language);
  const { quote, totals } = source;
  const currency = quote.currency;
  const money = (value: Text) => format.money(value, currency);
  const items: DocumentItemRow[] = source.items.map((item) => ({
    position: item.position,
    description: text(item.description),
    quantity: [format.decimal(item.quantity, 4), text(item.unit)].filter(Boolean).join(" "),
    unit: text(item.unit),
    unit_price: money(item.unit_price),
    discount: isZero(item.discount_value) ? "" : item.discount_type === "percent" ? format.rate(item.discount_value) : money(item.discount_value),
    vat_rate: format.rate(item.vat_rate),
    line_net: money(item.line_net),
    line_vat: money(item.line_vat),
    line_gross: money(item.line_gross),
    // The reason of a 0 % line only: a reason left on a taxed line is no exemption.
    ...(isZero(item.vat_rate) && item.vat_exemption_reason?.trim() ? { vat_exemption_reason: item.vat_exemption_reason.trim() } : {}),
    ...(item.withholding_rate && !isZero(item.line_withholding)
      ? { withholding: { rate: item.withholding_rate, amount: money(item.line_withholding) } }
      : {}),
  }));
  const foreign = currency !== "TRY";
  return {
    kind: "quote",
    language,
    organization,
    values: {
      ...partyValues(source.customer, source.contact),
      "quote.number": text(quote.quote_number),
      "quote.revision": String(quote.revision),
      "quote.date": format.date(quote.quote_date),
      "quote.valid_until": format.date(quote.valid_until),
      "quote.currency": currency,
      "quote.exchange_rate": foreign ? format.decimal(quote.exchange_rate, 6) : "",
      "quote.payment_terms": text(quote.payment_terms),
      "quote.notes": text(quote.notes),
      "totals.gross": money(totals.gross_total),
      "totals.line_discounts": isZero(totals.line_discount_total) ? "" : money(totals.line_discount_total),
      "totals.document_discount": isZero(totals.document_discount_total) ? "" : money(totals.document_discount_total),
      "totals.net": money(totals.net_total),
      "totals.vat": money(totals.vat_total),
      "totals.withholding": isZero(totals.withholding_total) ? "" : money(totals.withholding_total),
      "totals.total": money(totals.grand_total),
      "totals.total_try": foreign ? format.money(totals.grand_total_try, "TRY") : "",
      "totals.total_in_words": amountInWords(totals.grand_total, currency, language),
      "owner.name": text(quote.owner_name),
      today: format.date(localDay(today)),
    },
    items,
    vat_breakdown: totals.vat_breakdown.map((row) => ({
      rate: format.rate(row.rate),
      base: money(row.base),
      vat: money(row.vat),
      ...(isZero(row.withholding) ? {} : { withholding: money(row.withholding) }),
    })),
  };
}

/**
 * A contract's PDF input. `today` fills {{today}}. A missing date or value prints as "—", an
 * unsigned signature date as a line to fill in; the clause placeholders (parties, term,
 * value with its KDV basis, signatories) read as whole sentences whatever is missing.
 */
export function contractPdfInput(
  source: ContractPdfSource,
  organization: DocumentPdfInput["organization"],
  language: DocumentLanguage = "tr",
  today: Date = new Date(),
): DocumentPdfInput {
  const format = formatters(language);
  const labels = documentLabels[language];
  const { contract, customer, contact } = source;
  const currency = contract.currency ?? "TRY";
  const money = (value: Text) => format.money(value, currency);
  const type = text(contract.contract_type);
  const start = format.date(contract.start_date);
  const end = format.date(contract.end_date);
  const noValue = isZero(contract.value);
  const value = noValue ? "" : money(contract.value);
  const inWords = noValue ? "" : amountInWords(contract.value as string, currency, language);
  const stated = contract.vat_amount !== null && contract.vat_amount !== undefined && contract.vat_amount !== "";
  const vat = stated ? money(contract.vat_amount) : "";
  const totalWithVat = money(contract.total_with_vat);
  const customerAddress = joined(customer?.address, customer?.district, customer?.city);
  const signed = (day: Text) => format.date(day) || signatureDateBlank;
  return {
    kind: "contract",
    language,
    organization,
    values: {
      ...partyValues(customer, contact),
      "contract.number": text(contract.contract_number),
      "contract.title": contract.title,
      "contract.type": Object.hasOwn(labels.contractTypes, type) ? labels.contractTypes[type] : type,
      "contract.start_date": start || missingValue,
      "contract.end_date": end || missingValue,
      "contract.value": value || missingValue,
      "contract.value_in_words": inWords || missingValue,
      "contract.vat_amount": vat || missingValue,
      "contract.total_with_vat": totalWithVat || missingValue,
      "contract.customer_signed_on": signed(contract.customer_signed_on),
      "contract.company_signed_on": signed(contract.company_signed_on),
      "contract.renewal_terms": contract.auto_renew
        ? labels.renewal(contract.renewal_notice_days ?? 0, contract.renewal_term_months ?? 12)
        : labels.noRenewal,
      "contract.company_party": partyClause(language, organization),
      "contract.customer_party": partyClause(language, {
        name: customer?.name,
        address: customerAddress,
        tax_office: customer?.tax_office,
        tax_number: customer?.tax_number,
      }),
      "contract.term": termClause(language, start, end),
      "contract.value_terms": valueClause(language, {
        none: noValue,
        value,
        inWords,
        includesVat: contract.value_includes_vat === true,
        vat,
        vatIsZero: stated && isZero(contract.vat_amount),
        totalWithVat,
        withheld: isZero(contract.withholding_amount) ? "" : money(contract.withholding_amount),
        withholdingRate: text(contract.withholding_rate),
        payable: money(contract.payable_total),
      }),
      "contract.company_signatory": signatoryClause(contract.owner_name, organization.name),
      "contract.customer_signatory": signatoryClause(contact?.name, customer?.name),
      "owner.name": text(contract.owner_name),
      today: format.date(localDay(today)),
    },
  };
}
