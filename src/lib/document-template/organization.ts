/**
 * The organization's own details as every quote and contract prints them: the
 * `organization.*` placeholders are filled here and only here, typed by the placeholder list
 * (placeholders.ts), so a placeholder the editor offers without a value here, or a value for
 * one it does not offer, does not compile. The details come from the general settings
 * (get_organization_settings: every member reads them).
 */
import { formatIban } from "@/lib/turkish-identifiers.ts";
import type { TextPlaceholder } from "./placeholders.ts";

export interface BankAccount {
  iban: string;
  bank_name?: string | null;
}

/** What a document prints about its sender. */
export interface OrganizationDetails {
  /** The organization's name as the app shows it. */
  name: string;
  /** Ticari unvan: the full legal name (the name when it has none). */
  legal_name?: string | null;
  /** The street address, without district and province. */
  address?: string | null;
  district?: string | null;
  province?: string | null;
  tax_office?: string | null;
  /** VKN, ten digits. */
  tax_number?: string | null;
  mersis_number?: string | null;
  /** E.164 as stored (+902125550123); printed grouped. */
  phone?: string | null;
  email?: string | null;
  website?: string | null;
  bank_accounts?: readonly BankAccount[] | null;
  /** A PNG or JPEG data URL (WebP is turned into PNG in the browser); anything else is ignored. */
  logo?: string | null;
}

export type OrganizationPlaceholder = Extract<TextPlaceholder, `organization.${string}`>;

const present = (value: string | null | undefined): value is string => typeof value === "string" && value.trim() !== "";
const text = (value: string | null | undefined) => (present(value) ? value.trim() : "");

/** A stored E.164 number as people write it: +90 212 555 01 23 for Turkish numbers, others as stored. */
export function printedPhone(phone: string | null | undefined): string {
  const value = text(phone);
  const turkish = /^\+90(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(value);
  return turkish ? `+90 ${turkish[1]} ${turkish[2]} ${turkish[3]} ${turkish[4]}` : value;
}

/** "İlçe/İl", the way Turkish addresses end (either alone when the other is missing). */
export function districtAndProvince(details: Pick<OrganizationDetails, "district" | "province">): string {
  return [text(details.district), text(details.province)].filter(Boolean).join("/");
}

/** The full address on one line: street, then district/province. */
export function fullAddress(details: OrganizationDetails): string {
  return [text(details.address), districtAndProvince(details)].filter(Boolean).join(", ");
}

/** Each bank account on its own line: "Garanti BBVA IBAN: TR33 0006 …" ("IBAN: …" without a bank name). */
export function bankAccountLines(details: OrganizationDetails): string[] {
  return (details.bank_accounts ?? [])
    .filter((account) => present(account.iban))
    .map((account) => `${[text(account.bank_name), "IBAN"].filter(Boolean).join(" ")}: ${formatIban(account.iban.trim())}`);
}

/** The value of every organization.* text placeholder. */
export function organizationValues(details: OrganizationDetails): Record<OrganizationPlaceholder, string> {
  return {
    "organization.name": text(details.name),
    "organization.legal_name": text(details.legal_name) || text(details.name),
    "organization.address": fullAddress(details),
    "organization.district": text(details.district),
    "organization.province": text(details.province),
    "organization.tax_office": text(details.tax_office),
    "organization.tax_number": text(details.tax_number),
    "organization.mersis_number": text(details.mersis_number),
    "organization.phone": printedPhone(details.phone),
    "organization.email": text(details.email),
    "organization.website": text(details.website),
    "organization.iban": bankAccountLines(details).join("\n"),
  };
}

/** The parts of the organization's settings (get_organization_settings) a document prints. */
export interface OrganizationSettingsDetails {
  name: string;
  legal_name?: string | null;
  address?: string | null;
  district?: string | null;
  province?: string | null;
  tax_office?: string | null;
  tax_number?: string | null;
  mersis_number?: string | null;
  phone?: string | null;
  email?: string | null;
  website?: string | null;
  bank_accounts?: readonly BankAccount[] | null;
}

/** The sender of a document from the organization's settings and its logo. */
export function organizationFromSettings(settings: OrganizationSettingsDetails, logo: string | null): OrganizationDetails {
  return {
    name: settings.name,
    legal_name: settings.legal_name ?? null,
    address: settings.address ?? null,
    district: settings.district ?? null,
    province: settings.province ?? null,
    tax_office: settings.tax_office ?? null,
    tax_number: settings.tax_number ?? null,
    mersis_number: settings.mersis_number ?? null,
    phone: settings.phone ?? null,
    email: settings.email ?? null,
    website: settings.website ?? null,
    bank_accounts: settings.bank_accounts ?? [],
    logo,
  };
}
