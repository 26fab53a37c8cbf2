/**
 * The session organization's settings (general and operations): every member reads them
 * (currency, KDV, the deal pipeline, task types…), admins change them in the console. One
 * schema for the sales modules and the admin screens (the query: organization-settings.ts).
 */
import { z } from "zod";

export const stageOutcomes = ["open", "won", "lost"] as const;
export type StageOutcome = (typeof stageOutcomes)[number];

export const dealStageSchema = z.object({
  key: z.string(),
  name: z.string(),
  probability: z.number(),
  outcome: z.enum(stageOutcomes),
});
export type DealStage = z.infer<typeof dealStageSchema>;

/** The organization's settings as `get_organization_settings` answers them. */
export const organizationSettingsSchema = z.looseObject({
  name: z.string(),
  /** When the logo last changed; null: the organization has none. */
  logo_updated_at: z.string().nullable(),
  default_currency: z.string(),
  default_vat_rate: z.coerce.number(),
  locale: z.string(),
  time_zone: z.string(),
  deal_stages: z.array(dealStageSchema),
  task_types: z.array(z.string()),
  quote_number_pattern: z.string(),
  quote_validity_days: z.number().int(),
  /** How new contracts are numbered; absent from the answer while it is the default. */
  contract_number_pattern: z.string().default("SZL-{YYYY}-{SEQ:5}"),
  /** 1 unit of a currency in the default currency ({"EUR": 44.9}); forecasts convert with it. */
  exchange_rates: z.record(z.string(), z.coerce.number()).catch({}),
  updated_at: z.string().nullable().optional(),
  // The organization's own details (printed on quotes and contracts); each absent while unset.
  legal_name: z.string().nullable().optional(),
  address: z.string().nullable().optional(),
  province: z.string().nullable().optional(),
  district: z.string().nullable().optional(),
  tax_office: z.string().nullable().optional(),
  /** VKN, ten digits. */
  tax_number: z.string().nullable().optional(),
  mersis_number: z.string().nullable().optional(),
  /** E.164 (+902125550123). */
  phone: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  website: z.string().nullable().optional(),
  /** IBANs in compact form, in the order they print. */
  bank_accounts: z.array(z.object({ iban: z.string(), bank_name: z.string().nullable().optional() })).default([]),
});
export type OrganizationSettings = z.infer<typeof organizationSettingsSchema>;

export const settingsAnswerSchema = z.object({ success: z.literal(true), settings: organizationSettingsSchema });
