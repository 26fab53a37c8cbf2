/**
 * The sentences of a contract document that depend on what the contract has: the parties,
 * the term, the value with its KDV basis and the signatories. Each reads naturally whatever
 * is missing (a clause is left out, or a clear "—" stands in), so a printed contract never
 * shows an empty gap ("… adresinde bulunan", "… tarihinde başlar"). Every amount arrives
 * already formatted from the database's exact decimals: nothing is added up here.
 */
import type { DocumentLanguage } from "./labels.ts";

type Text = string | null | undefined;

/** What is shown where a value is missing and no natural sentence leaves it out. */
export const missingValue = "—";
/** What a signature date reads before it is signed: a line to fill in by hand. */
export const signatureDateBlank = "..... / ..... / ..........";

const present = (value: Text): value is string => !!value && value.trim() !== "";

/** A party: "<address> adresinde bulunan <name> (Vergi Dairesi / No: …)", each part only when known. */
export function partyClause(
  language: DocumentLanguage,
  party: { name: Text; address?: Text; tax_office?: Text; tax_number?: Text },
): string {
  const name = present(party.name) ? party.name.trim() : missingValue;
  const tax = [party.tax_office, party.tax_number].filter(present).join(" / ");
  const taxLabel = present(party.tax_office) && present(party.tax_number) ? "Vergi Dairesi / No" : present(party.tax_office) ? "Vergi Dairesi" : "Vergi No";
  if (language === "tr") {
    const located = present(party.address) ? `${party.address.trim()} adresinde bulunan ${name}` : name;
    return tax ? `${located} (${taxLabel}: ${tax})` : located;
  }
  const englishTaxLabel = present(party.tax_office) && present(party.tax_number) ? "Tax office / No" : present(party.tax_office) ? "Tax office" : "Tax No";
  const located = present(party.address) ? `${name}, located at ${party.address.trim()}` : name;
  return tax ? `${located} (${englishTaxLabel}: ${tax})` : located;
}

/** The term: both dates, only one, or neither (formatted dates, "" when missing). */
export function termClause(language: DocumentLanguage, start: string, end: string): string {
  if (language === "tr") {
    if (start && end) return `Sözleşme ${start} tarihinde başlar ve ${end} tarihinde sona erer.`;
    if (start) return `Sözleşme ${start} tarihinde başlar; bitiş tarihi taraflarca ayrıca belirlenir.`;
    if (end) return `Sözleşme taraflarca imzalandığı tarihte başlar ve ${end} tarihinde sona erer.`;
    return "Sözleşme taraflarca imzalandığı tarihte yürürlüğe girer; süresi taraflarca ayrıca belirlenir.";
  }
  if (start && end) return `The contract starts on ${start} and ends on ${end}.`;
  if (start) return `The contract starts on ${start}; its end date is agreed separately by the parties.`;
  if (end) return `The contract starts on the date it is signed by the parties and ends on ${end}.`;
  return "The contract takes effect on the date it is signed by the parties; its term is agreed separately.";
}

/** The value as formatted amounts: the value, in words, the KDV stated with it and the total with KDV ("" when not stated). */
export interface ValueAmounts {
  /** The value is zero or missing: no price is set. */
  none: boolean;
  value: string;
  inWords: string;
  includesVat: boolean;
  /** The KDV amount stated with the value, "" when not stated. */
  vat: string;
  /** The KDV amount is stated and is zero. */
  vatIsZero: boolean;
  /** The value with its KDV (SQL's sum), "" when the KDV is not stated. */
  totalWithVat: string;
  /** The KDV withheld (tevkifat), "" when none; its ratio ("7/10"), "" when not one. */
  withheld?: string;
  withholdingRate?: string;
  /** What the customer pays: the total with KDV less the withheld KDV (SQL's). */
  payable?: string;
}

/** The tevkifat sentence after the KDV one ("" when nothing is withheld). */
function withholdingSentence(language: DocumentLanguage, amounts: ValueAmounts): string {
  const { withheld, withholdingRate, payable } = amounts;
  if (!present(withheld)) return "";
  if (language === "tr") {
    const part = present(withholdingRate) ? `${withholdingRate} oranında ${withheld}` : withheld;
    return ` Bu KDV'nin ${part} tutarındaki kısmı Müşteri tarafından tevkif edilir (KDV tevkifatı); Müşterinin ödeyeceği tutar ${payable ?? missingValue} tutarındadır.`;
  }
  const part = present(withholdingRate) ? `${withheld} (${withholdingRate})` : withheld;
  return ` Of this VAT, ${part} is withheld by the customer (VAT withholding); the amount payable by the customer is ${payable ?? missingValue}.`;
}

/**
 * The value sentence. A value without KDV says so and states the KDV on top (or that it is
 * calculated separately when its amount is not stated); a KDV-included value says "KDV dahil"
 * and never that taxes come on top. KDV withheld (tevkifat) adds its ratio, amount and what
 * the customer pays.
 */
export function valueClause(language: DocumentLanguage, amounts: ValueAmounts): string {
  const { value, inWords, vat, totalWithVat } = amounts;
  if (language === "tr") {
    if (amounts.none) return "Bu sözleşme için bir bedel belirlenmemiştir.";
    const said = inWords ? `${value} (Yalnız: ${inWords})` : value;
    if (amounts.includesVat) {
      return vat && !amounts.vatIsZero
        ? `Sözleşme bedeli KDV dahil ${said} olup bu tutarın ${vat} kadarı KDV'dir.${withholdingSentence(language, amounts)}`
        : `Sözleşme bedeli KDV dahil ${said} tutarındadır.`;
    }
    if (!vat) return `Sözleşme bedeli KDV hariç ${said} olup KDV ayrıca hesaplanır.`;
    if (amounts.vatIsZero) return `Sözleşme bedeli ${said} olup bu bedele KDV uygulanmaz.`;
    return `Sözleşme bedeli KDV hariç ${said} olup bu bedele ayrıca ${vat} KDV uygulanır. KDV dahil toplam bedel ${totalWithVat} tutarındadır.${withholdingSentence(language, amounts)}`;
  }
  if (amounts.none) return "No price is set for this contract.";
  const said = inWords ? `${value} (in words: ${inWords})` : value;
  if (amounts.includesVat) {
    return vat && !amounts.vatIsZero
      ? `The contract price is ${said} including VAT, of which ${vat} is VAT.${withholdingSentence(language, amounts)}`
      : `The contract price is ${said} including VAT.`;
  }
  if (!vat) return `The contract price is ${said} excluding VAT; VAT is calculated separately.`;
  if (amounts.vatIsZero) return `The contract price is ${said}; no VAT applies.`;
  return `The contract price is ${said} excluding VAT, plus ${vat} VAT. The total including VAT is ${totalWithVat}.${withholdingSentence(language, amounts)}`;
}

/** "<person>, <company>", or whichever of the two is known, or "—". */
export function signatoryClause(person: Text, company: Text): string {
  const parts = [person, company].filter(present).map((part) => part.trim());
  return parts.length > 0 ? parts.join(", ") : missingValue;
}
