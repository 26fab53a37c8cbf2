/**
 * The deal form: its values on screen, the browser's checks (the rules of
 * private.prepare_deal: a title, an amount of zero or more, a three-letter currency, a
 * probability 0-100, a lost stage needs a reason) and the values sent to the database.
 */
import { z } from "zod";
import { fieldErrorKey } from "@/components/records/record-form.ts";
import type { DealStage } from "@/session/organization-settings-schema.ts";
import type { Deal, DealValues } from "../api/deals.ts";

const msg = (key: string) => `modules.deals.form.errors.${key}`;

/** "12.500,50" or "12500.50" as a number; null when it is not one. */
export function parseAmount(text: string): number | null {
  const trimmed = text.trim().replace(/\s/g, "");
  if (trimmed === "") return 0;
  // Turkish writing: dots group thousands, a comma marks decimals.
  const normalised = /,\d{1,2}$/.test(trimmed) || (trimmed.includes(".") && /\.\d{3}(\.|$)/.test(trimmed))
    ? trimmed.replace(/\./g, "").replace(",", ".")
    : trimmed.replace(/,/g, "");
  if (!/^\d+(\.\d{1,2})?$/.test(normalised)) return null;
  return Number(normalised);
}

export function dealFormSchema(stages: readonly DealStage[]) {
  return z
    .object({
      title: z.string().refine((value) => value.trim() !== "", msg("titleRequired")).refine((value) => value.trim().length <= 200, msg("titleTooLong")),
      customer_id: z.string().nullable(),
      amount: z.string().refine((value) => parseAmount(value) !== null, msg("amountInvalid")),
      currency: z.string().regex(/^[A-Z]{3}$/, msg("currencyInvalid")),
      stage: z.string().min(1, msg("stageRequired")),
      probability: z.union([z.number().int(msg("probabilityInvalid")).min(0, msg("probabilityInvalid")).max(100, msg("probabilityInvalid")), z.literal("")]),
      expected_close_date: z.string().nullable(),
      source: z.string(),
      tags: z.array(z.string()),
      description: z.string(),
      lost_reason: z.string().max(500, fieldErrorKey("too_long")),
      contact_ids: z.array(z.string()),
    })
    .superRefine((values, context) => {
      const stage = stages.find((candidate) => candidate.key === values.stage);
      if (stage?.outcome === "lost" && values.lost_reason.trim() === "") {
        context.addIssue({ code: "custom", path: ["lost_reason"], message: msg("lostReasonRequired") });
      }
    });
}
export type DealFormValues = z.infer<ReturnType<typeof dealFormSchema>>;

export function emptyDealForm(currency: string, stages: readonly DealStage[], customerId: string | null = null): DealFormValues {
  return {
    title: "",
    customer_id: customerId,
    amount: "",
    currency,
    stage: stages.find((stage) => stage.outcome === "open")?.key ?? stages[0]?.key ?? "",
    probability: "",
    expected_close_date: null,
    source: "",
    tags: [],
    description: "",
    lost_reason: "",
    contact_ids: [],
  };
}

export function dealFormOf(deal: Deal, contactIds: string[]): DealFormValues {
  return {
    title: deal.title,
    customer_id: deal.customer_id,
    amount: String(deal.amount),
    currency: deal.currency,
    stage: deal.stage,
    probability: deal.probability ?? "",
    expected_close_date: deal.expected_close_date,
    source: deal.source ?? "",
    tags: deal.tags,
    description: deal.description ?? "",
    lost_reason: deal.lost_reason ?? "",
    contact_ids: contactIds,
  };
}

const orNull = (text: string) => (text.trim() === "" ? null : text.trim());

/**
 * What the database gets. An empty probability is left out when the stage changes (the
 * stage's own applies) and sent as null otherwise; a lost reason only with a lost stage.
 */
export function dealValuesOf(form: DealFormValues, stages: readonly DealStage[], before?: Deal): Partial<DealValues> {
  const lost = stages.find((stage) => stage.key === form.stage)?.outcome === "lost";
  const values: Partial<DealValues> = {
    title: form.title.trim(),
    customer_id: form.customer_id,
    amount: parseAmount(form.amount) ?? 0,
    currency: form.currency,
    stage: form.stage,
    expected_close_date: form.expected_close_date,
    source: orNull(form.source),
    tags: form.tags.length === 0 ? null : form.tags,
    description: orNull(form.description),
  };
  if (lost) values.lost_reason = form.lost_reason.trim();
  if (form.probability !== "") values.probability = form.probability;
  else if (before && before.stage === form.stage) values.probability = null;
  return values;
}
