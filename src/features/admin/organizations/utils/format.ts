/** A date in the interface's language, in the browser's time zone. */
export function formatDate(value: string, language: string | undefined): string {
  const locale = language === "en" ? "en-GB" : "tr-TR";
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).format(new Date(value));
}
