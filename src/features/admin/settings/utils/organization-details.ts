/**
 * The organization's own details in the general settings (legal name, address, tax office,
 * VKN, MERSİS, phone, e-mail, website, IBANs): the form's rules, checked here first with the
 * database's own rules (src/lib/turkish-identifiers.ts mirrors private.is_valid_vkn,
 * private.normalize_phone, private.is_valid_website and private.normalize_iban); the
 * server's answer is the one that counts.
 */
import { z } from "zod";
import { printedPhone } from "@/lib/document-template/organization.ts";
import { formatIban, isValidIban, isValidVkn, isValidWebsite, normalizeIban, normalizePhone } from "@/lib/turkish-identifiers.ts";
import type { OrganizationSettings } from "@/session/organization-settings-schema.ts";
import type { SettingsError } from "./settings-errors.ts";

const msg = (key: string) => `adminSettings.errors.${key}`;
// private.is_valid_email: something@something.something, no whitespace, at most 254 characters.
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const compact = (value: string) => value.replace(/\s/g, "");
const optional = (max: number, key: string) => z.string().trim().max(max, msg(key));

export const MAX_BANK_ACCOUNTS = 10;

export const organizationDetailsSchema = z.object({
  legal_name: optional(250, "legalNameTooLong"),
  address: optional(500, "addressTooLong"),
  province: optional(60, "provinceTooLong"),
  district: optional(60, "districtTooLong"),
  tax_office: optional(100, "taxOfficeTooLong"),
  tax_number: z.string().trim().refine((value) => value === "" || isValidVkn(value), msg("vknInvalid")),
  mersis_number: z.string().trim().refine((value) => value === "" || /^[0-9]{16}$/.test(compact(value)), msg("mersisInvalid")),
  phone: z.string().trim().refine((value) => value === "" || normalizePhone(value) !== null, msg("phoneInvalid")),
  email: z.string().trim().refine((value) => value === "" || (value.length <= 254 && EMAIL.test(value.toLowerCase())), msg("emailInvalid")),
  website: z.string().trim().refine((value) => value === "" || isValidWebsite(value), msg("websiteInvalid")),
  bank_accounts: z
    .array(
      z.object({
        bank_name: optional(100, "bankNameTooLong"),
        iban: z.string().trim().refine((value) => isValidIban(value), msg("ibanInvalid")),
      }),
    )
    .max(MAX_BANK_ACCOUNTS, msg("tooManyIbans"))
    .superRefine((accounts, ctx) => {
      const seen = new Set<string>();
      accounts.forEach((account, index) => {
        const iban = normalizeIban(account.iban);
        if (iban === null) return;
        if (seen.has(iban)) ctx.addIssue({ code: "custom", path: [index, "iban"], message: msg("ibanTwice") });
        seen.add(iban);
      });
    }),
});
export type OrganizationDetailsValues = z.input<typeof organizationDetailsSchema>;
export type OrganizationDetailsField = Exclude<keyof OrganizationDetailsValues, "bank_accounts">;

export const detailFields = [
  "legal_name", "address", "province", "district", "tax_office", "tax_number", "mersis_number", "phone", "email", "website",
] as const satisfies readonly OrganizationDetailsField[];

/** The form's values from the saved settings (phone and IBANs as people write them). */
export function detailsValuesOf(settings: OrganizationSettings): OrganizationDetailsValues {
  return {
    legal_name: settings.legal_name ?? "",
    address: settings.address ?? "",
    province: settings.province ?? "",
    district: settings.district ?? "",
    tax_office: settings.tax_office ?? "",
    tax_number: settings.tax_number ?? "",
    mersis_number: settings.mersis_number ?? "",
    phone: printedPhone(settings.phone),
    email: settings.email ?? "",
    website: settings.website ?? "",
    bank_accounts: settings.bank_accounts.map((account) => ({ bank_name: account.bank_name ?? "", iban: formatIban(account.iban) })),
  };
}

/** What to send: only the fields that differ from the saved ones (blank clears one). */
export function detailsChanges(saved: OrganizationDetailsValues, values: OrganizationDetailsValues): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const field of detailFields) {
    if (values[field].trim() !== saved[field].trim()) changes[field] = values[field].trim();
  }
  const accounts = values.bank_accounts.map((account) => ({ iban: account.iban.trim(), bank_name: account.bank_name.trim() || null }));
  const savedAccounts = saved.bank_accounts.map((account) => ({ iban: account.iban.trim(), bank_name: account.bank_name.trim() || null }));
  if (JSON.stringify(accounts) !== JSON.stringify(savedAccounts)) changes.bank_accounts = accounts;
  return changes;
}

const serverMessages: Record<OrganizationDetailsField, string> = {
  legal_name: msg("legalNameTooLong"),
  address: msg("addressTooLong"),
  province: msg("provinceTooLong"),
  district: msg("districtTooLong"),
  tax_office: msg("taxOfficeTooLong"),
  tax_number: msg("vknInvalid"),
  mersis_number: msg("mersisInvalid"),
  phone: msg("phoneInvalid"),
  email: msg("emailInvalid"),
  website: msg("websiteInvalid"),
};

/** Where the server's refusal goes in the form, with its message; undefined: it belongs to no field here. */
export function detailsFieldError(failure: SettingsError): { path: string; message: string } | undefined {
  const field = failure.field;
  if (field === "bank_accounts") {
    if (failure.index === undefined) return undefined;
    const message = failure.problem === "duplicate_iban" ? msg("ibanTwice") : failure.problem === "invalid_bank_name" ? msg("bankNameTooLong") : msg("ibanInvalid");
    return { path: `bank_accounts.${failure.index}.${failure.problem === "invalid_bank_name" ? "bank_name" : "iban"}`, message };
  }
  const known = detailFields.find((candidate) => candidate === field);
  return known ? { path: known, message: serverMessages[known] } : undefined;
}
