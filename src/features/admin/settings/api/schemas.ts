import { z } from "zod";
import { pipelineProblem, QUOTE_PATTERN_SEQ, STAGE_KEY_PATTERN } from "../utils/pipeline.ts";

import { stageOutcomes } from "@/session/organization-settings-schema.ts";

/** Choices of the general settings form (a saved value outside them stays selectable). */
export const currencies = ["TRY", "USD", "EUR", "GBP"] as const;
export const settingsLocales = ["tr-TR", "en-US"] as const;
export const timeZones = [
  "Europe/Istanbul",
  "UTC",
  "Europe/London",
  "Europe/Berlin",
  "Europe/Paris",
  "Europe/Moscow",
  "Asia/Dubai",
  "America/New_York",
  "America/Los_Angeles",
] as const;

const msg = (key: string) => `adminSettings.errors.${key}`;

export const generalSettingsSchema = z.object({
  name: z.string().trim().min(1, msg("nameRequired")).max(200, msg("nameTooLong")),
  default_currency: z.string().regex(/^[A-Z]{3}$/, msg("currencyInvalid")),
  default_vat_rate: z
    .number(msg("vatInvalid"))
    .min(0, msg("vatInvalid"))
    .max(100, msg("vatInvalid")),
  locale: z.enum(settingsLocales, msg("localeInvalid")),
  time_zone: z.string().min(1, msg("timeZoneInvalid")),
});
export type GeneralSettingsValues = z.infer<typeof generalSettingsSchema>;

const stageFormSchema = z.object({
  key: z.string().trim().regex(STAGE_KEY_PATTERN, msg("stageKeyInvalid")),
  name: z.string().trim().min(1, msg("stageNameRequired")).max(60, msg("stageNameTooLong")),
  probability: z.number(msg("probabilityInvalid")).min(0, msg("probabilityInvalid")).max(100, msg("probabilityInvalid")),
  outcome: z.enum(stageOutcomes),
});

export const operationsSettingsSchema = z.object({
  deal_stages: z.array(stageFormSchema).superRefine((stages, ctx) => {
    // The server's rule (private.is_valid_pipeline), checked here first.
    const problem = pipelineProblem(stages);
    if (problem?.index !== undefined) {
      ctx.addIssue({ code: "custom", path: [problem.index, "key"], message: msg(problem.code) });
    } else if (problem) {
      ctx.addIssue({ code: "custom", message: msg(problem.code) });
    }
  }),
  task_types: z
    .array(z.string().trim().min(1).max(40, msg("taskTypeTooLong")))
    .min(1, msg("taskTypesRequired"))
    .max(30, msg("taskTypesTooMany")),
  quote_number_pattern: z
    .string()
    .trim()
    .min(1, msg("quotePatternInvalid"))
    .max(60, msg("quotePatternInvalid"))
    .regex(QUOTE_PATTERN_SEQ, msg("quotePatternInvalid")),
  contract_number_pattern: z
    .string()
    .trim()
    .min(1, msg("quotePatternInvalid"))
    .max(60, msg("quotePatternInvalid"))
    .regex(QUOTE_PATTERN_SEQ, msg("quotePatternInvalid")),
  quote_validity_days: z
    .number(msg("validityInvalid"))
    .int(msg("validityInvalid"))
    .min(1, msg("validityInvalid"))
    .max(365, msg("validityInvalid")),
});
export type OperationsSettingsValues = z.infer<typeof operationsSettingsSchema>;
