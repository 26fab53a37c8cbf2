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

/**
 * An amount in its currency ("₺1.250.000", "€12,500"); whole units unless it has cents. An
 * exact decimal as the database wrote it ("1250000.50") is formatted as written, not as a float.
 */
export function formatMoney(amount: number | string, currency: string, language: string | undefined): string {
  const whole = typeof amount === "number" ? Number.isInteger(amount) : !/\.\d*[1-9]/.test(amount);
  const value = amount as number | `${number}`;
  try {
    return new Intl.NumberFormat(localeFor(language), {
      style: "currency",
      currency,
      maximumFractionDigits: whole ? 0 : 2,
    }).format(value);
  } catch {
    // A code Intl does not know is still shown, beside the number.
    return `${new Intl.NumberFormat(localeFor(language)).format(value)} ${currency}`;
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
