import { describe, expect, it } from "vitest";
import { organizationSettingsSchema } from "@/session/organization-settings-schema.ts";
import { detailsChanges, detailsFieldError, detailsValuesOf, organizationDetailsSchema, type OrganizationDetailsValues } from "./organization-details.ts";

const settings = organizationSettingsSchema.parse({
  name: "Demo", logo_updated_at: null, default_currency: "TRY", default_vat_rate: 20, locale: "tr-TR", time_zone: "Europe/Istanbul",
  deal_stages: [], task_types: ["call"], quote_number_pattern: "T-{SEQ}", quote_validity_days: 30,
  tax_number: "2910045871", phone: "+902123450100", bank_accounts: [{ iban: "TR180006200119000006672315", bank_name: "Garanti BBVA" }],
});

const errorsOf = (values: OrganizationDetailsValues) => {
  const result = organizationDetailsSchema.safeParse(values);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join("."), issue.message]));
};

describe("organization details form", () => {
  it("shows the saved details as people write them", () => {
    const values = detailsValuesOf(settings);
    expect(values).toMatchObject({ tax_number: "2910045871", phone: "+90 212 345 01 00", legal_name: "" });
    expect(values.bank_accounts).toEqual([{ bank_name: "Garanti BBVA", iban: "TR18 0006 2001 1900 0006 6723 15" }]);
    expect(errorsOf(values)).toEqual({});
  });

  it("refuses a bad VKN, MERSİS, phone, e-mail, website and IBAN with their own messages, and an IBAN twice", () => {
    const values: OrganizationDetailsValues = {
      ...detailsValuesOf(settings),
      tax_number: "2910045872", mersis_number: "123", phone: "12", email: "a@b", website: "bir site",
      bank_accounts: [
        { bank_name: "", iban: "TR18 0006 2001 1900 0006 6723 15" },
        { bank_name: "", iban: "tr180006200119000006672315" },
        { bank_name: "", iban: "TR19 0006 2001 1900 0006 6723 15" },
      ],
    };
    expect(errorsOf(values)).toEqual({
      tax_number: "adminSettings.errors.vknInvalid",
      mersis_number: "adminSettings.errors.mersisInvalid",
      phone: "adminSettings.errors.phoneInvalid",
      email: "adminSettings.errors.emailInvalid",
      website: "adminSettings.errors.websiteInvalid",
      "bank_accounts.1.iban": "adminSettings.errors.ibanTwice",
      "bank_accounts.2.iban": "adminSettings.errors.ibanInvalid",
    });
  });

  it("sends only what changed, blanks to clear", () => {
    const saved = detailsValuesOf(settings);
    expect(detailsChanges(saved, saved)).toEqual({});
    expect(detailsChanges(saved, { ...saved, tax_number: " ", address: " Barbaros Bulvarı 1 " })).toEqual({ tax_number: "", address: "Barbaros Bulvarı 1" });
    expect(detailsChanges(saved, { ...saved, bank_accounts: [...saved.bank_accounts, { bank_name: "", iban: "TR33 0006 1005 1978 6457 8413 26" }] })).toEqual({
      bank_accounts: [
        { iban: "TR18 0006 2001 1900 0006 6723 15", bank_name: "Garanti BBVA" },
        { iban: "TR33 0006 1005 1978 6457 8413 26", bank_name: null },
      ],
    });
  });

  it("puts the server's refusal under its field, an IBAN under its row", () => {
    const key = "adminSettings.errors.invalid_setting" as const;
    expect(detailsFieldError({ key, field: "tax_number" })).toEqual({ path: "tax_number", message: "adminSettings.errors.vknInvalid" });
    expect(detailsFieldError({ key, field: "bank_accounts", index: 2, problem: "invalid_iban" })).toEqual({
      path: "bank_accounts.2.iban", message: "adminSettings.errors.ibanInvalid",
    });
    expect(detailsFieldError({ key, field: "bank_accounts", index: 1, problem: "duplicate_iban" })?.message).toBe("adminSettings.errors.ibanTwice");
    expect(detailsFieldError({ key, field: "default_vat_rate" })).toBeUndefined();
  });
});
