/** Dates in the interface's language (tr-TR, or en-GB for English), in the browser's time zone. */
function localeFor(language: string | undefined): string {
  return language === "en" ? "en-GB" : "tr-TR";
}

export function formatDateTime(value: string, language: string | undefined): string {
  return new Intl.DateTimeFormat(localeFor(language), { dateStyle: "medium", timeStyle: "short" }).format(new Date(value));
}

export function formatDate(value: string, language: string | undefined): string {
  return new Intl.DateTimeFormat(localeFor(language), { dateStyle: "medium" }).format(new Date(value));
}

/** An amount in its currency ("₺1.250.000", "€12,500"); whole units unless it has cents. */
export function formatMoney(amount: number, currency: string, language: string | undefined): string {
  try {
    return new Intl.NumberFormat(localeFor(language), {
      style: "currency",
      currency,
      maximumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    }).format(amount);
  } catch {
    // A code Intl does not know is still shown, beside the number.
    return `${new Intl.NumberFormat(localeFor(language)).format(amount)} ${currency}`;
  }
}

/** A calendar date without a time ("2026-12-31"), shown in the interface's language, never shifted by time zones. */
export function formatCalendarDate(value: string, language: string | undefined): string {
  const [year, month, day] = value.slice(0, 10).split("-").map(Number);
  return new Intl.DateTimeFormat(localeFor(language), { dateStyle: "medium", timeZone: "UTC" }).format(new Date(Date.UTC(year, month - 1, day)));
}

/** A count with the language's digit grouping ("100.000" in Turkish, "100,000" in English). */
export function formatCount(value: number, language: string | undefined): string {
  return new Intl.NumberFormat(localeFor(language)).format(value);
}
