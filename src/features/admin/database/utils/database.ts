import type { OrganizationTables } from "../api/schemas.ts";

export type TemplateStatus = "upToDate" | "needsUpgrade" | "notProvisioned";

/** The badge the template version gets: not provisioned, behind the latest, or up to date. */
export function templateStatus(
  tables: Pick<OrganizationTables, "provisioned" | "template_version" | "latest_template_version">,
): TemplateStatus {
  if (!tables.provisioned || tables.template_version <= 0) return "notProvisioned";
  if (tables.template_version < tables.latest_template_version) return "needsUpgrade";
  return "upToDate";
}

export const templateStatusColor: Record<TemplateStatus, string> = {
  upToDate: "green",
  needsUpgrade: "yellow",
  notProvisioned: "red",
};

function localeFor(language: string | undefined): string {
  return language === "en" ? "en-GB" : "tr-TR";
}

/** A count in the interface's language (1.234 in Turkish, 1,234 in English). */
export function formatCount(value: number, language: string | undefined): string {
  return new Intl.NumberFormat(localeFor(language)).format(value);
}

/** A size in bytes as B, kB or MB (1 kB = 1024 bytes), with at most one decimal. */
export function formatBytes(bytes: number, language: string | undefined): string {
  const number = (value: number) => new Intl.NumberFormat(localeFor(language), { maximumFractionDigits: 1 }).format(value);
  if (bytes < 1024) return `${number(bytes)} B`;
  if (bytes < 1024 * 1024) return `${number(bytes / 1024)} kB`;
  return `${number(bytes / (1024 * 1024))} MB`;
}
