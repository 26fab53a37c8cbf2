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
