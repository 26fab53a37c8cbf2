/**
 * Showing the database's exact decimals ("1234.50") in the interface's language: Intl formats
 * the decimal string itself (no conversion to a float, no arithmetic), tr-TR or en-US.
 */

export function numberLocale(language: string | undefined): "tr-TR" | "en-US" {
  return language === "en" ? "en-US" : "tr-TR";
}

type DecimalText = `${number}`;

/** An amount with its currency and two decimals ("1.234,50 ₺", "€1,234.50"); an unknown code follows the number. */
export function formatAmount(value: string | null | undefined, currency: string, language: string | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  const locale = numberLocale(language);
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay: "narrowSymbol", minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
      value as DecimalText,
    );
  } catch {
    return `${new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value as DecimalText)} ${currency}`;
  }
}

/** A plain decimal ("1.234,5"), up to `maxFraction` decimals. */
export function formatDecimal(value: string | null | undefined, language: string | undefined, maxFraction = 4): string {
  if (value === null || value === undefined || value === "") return "—";
  return new Intl.NumberFormat(numberLocale(language), { maximumFractionDigits: maxFraction }).format(value as DecimalText);
}

/** A KDV rate as Turkish and English write it: "%20", "20%". */
export function formatRate(rate: string, language: string | undefined): string {
  const number = formatDecimal(rate, language, 2);
  return language === "en" ? `${number}%` : `%${number}`;
}
