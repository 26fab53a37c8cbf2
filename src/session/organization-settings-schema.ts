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
});
export type OrganizationSettings = z.infer<typeof organizationSettingsSchema>;

export const settingsAnswerSchema = z.object({ success: z.literal(true), settings: organizationSettingsSchema });
