/** A date and time in the interface's language, in the browser's time zone. */
export function formatDateTime(value: string, language: string | undefined): string {
  const locale = language === "en" ? "en-GB" : "tr-TR";
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(value));
}
