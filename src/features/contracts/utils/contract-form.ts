/**
 * The contract form: its values on screen, the browser's checks (the rules of
 * private.prepare_contract: a title, the end not before the start, an active contract has
 * both dates, a value of zero or more with at most two decimals, the KDV withheld
 * (tevkifat) only with a KDV amount and not above it, the notice and term ranges), the
 * values sent to the database, and the database's own field codes as texts.
 */
import { z } from "zod";
import { fieldErrorKey } from "@/components/records/record-form.ts";
import type { Contract, ContractValues } from "../api/contracts.ts";
import { contractTypes, withholdingRates, type ContractType } from "./contract-fields.ts";

const msg = (key: string) => `modules.contracts.form.errors.${key}`;

/** Field codes of private.prepare_contract that the record kit's catalogue does not know. */
const contractCodes = ["exceeds_value", "exceeds_vat", "overlaps_previous", "end_before_start", "required_for_active", "invalid_transition", "locked"] as const;

/** The text key of a field code the database answered for a contract field. */
export function contractFieldErrorKey(code: string): string {
  return (contractCodes as readonly string[]).includes(code) ? msg(code) : fieldErrorKey(code);
}

/** A decimal of at most two places, as typed or as the number input gives it ("1250.5"). */
const DECIMAL = /^\d{1,16}(\.\d{1,2})?$/;
/** Such a decimal in kuruş, exactly. */
const kurus = (value: string) => {
  const [whole, fraction = ""] = value.trim().split(".");
  return BigInt(whole) * 100n + BigInt((fraction + "00").slice(0, 2));
};

export const contractFormSchema = z
  .object({
    title: z.string().refine((value) => value.trim() !== "", msg("titleRequired")).refine((value) => value.trim().length <= 300, msg("titleTooLong")),
    customer_id: z.string().nullable(),
    contact_id: z.string().nullable(),
    quote_id: z.string().nullable(),
    deal_id: z.string().nullable(),
    contract_type: z.enum(contractTypes),
    status: z.enum(["draft", "active"]),
    start_date: z.string().nullable(),
    end_date: z.string().nullable(),
    value: z.string().refine((value) => value.trim() === "" || DECIMAL.test(value.trim()), msg("valueInvalid")),
    value_includes_vat: z.boolean(),
    vat_amount: z.string().refine((value) => value.trim() === "" || DECIMAL.test(value.trim()), msg("vatInvalid")),
    withholding_amount: z.string().refine((value) => value.trim() === "" || DECIMAL.test(value.trim()), msg("withholdingInvalid")),
    withholding_rate: z.enum(withholdingRates).nullable(),
    currency: z.string().regex(/^[A-Z]{3}$/, msg("currencyInvalid")),
    customer_signed_on: z.string().nullable(),
    company_signed_on: z.string().nullable(),
    auto_renew: z.boolean(),
    renewal_notice_days: z.union([z.number().int(msg("noticeInvalid")).min(0, msg("noticeInvalid")).max(365, msg("noticeInvalid")), z.literal("")]),
    renewal_term_months: z.union([z.number().int(msg("termInvalid")).min(1, msg("termInvalid")).max(120, msg("termInvalid")), z.literal("")]),
    notes: z.string().max(10000, fieldErrorKey("too_long")),
  })
  .superRefine((values, context) => {
    const withheld = values.withholding_amount.trim();
    const vat = values.vat_amount.trim();
    if (DECIMAL.test(withheld) && (vat === "" || (DECIMAL.test(vat) && kurus(withheld) > kurus(vat)))) {
      context.addIssue({ code: "custom", path: ["withholding_amount"], message: msg("exceeds_vat") });
    }
    if (values.start_date && values.end_date && values.end_date < values.start_date) {
      context.addIssue({ code: "custom", path: ["end_date"], message: msg("end_before_start") });
    }
    if (values.status === "active") {
      if (!values.start_date) context.addIssue({ code: "custom", path: ["start_date"], message: msg("required_for_active") });
      if (!values.end_date) context.addIssue({ code: "custom", path: ["end_date"], message: msg("required_for_active") });
    }
  });
export type ContractFormValues = z.infer<typeof contractFormSchema>;

export function emptyContractForm(
  currency: string,
  links: { customerId?: string | null; contactId?: string | null; dealId?: string | null; quoteId?: string | null } = {},
): ContractFormValues {
  return {
    title: "",
    customer_id: links.customerId ?? null,
    contact_id: links.contactId ?? null,
    quote_id: links.quoteId ?? null,
    deal_id: links.dealId ?? null,
    contract_type: "service" satisfies ContractType,
    status: "draft",
    start_date: null,
    end_date: null,
    value: "",
    value_includes_vat: false,
    vat_amount: "",
    withholding_amount: "",
    withholding_rate: null,
    currency,
    customer_signed_on: null,
    company_signed_on: null,
    auto_renew: false,
    renewal_notice_days: 30,
    renewal_term_months: 12,
    notes: "",
  };
}

export function contractFormOf(contract: Contract): ContractFormValues {
  return {
    title: contract.title,
    customer_id: contract.customer_id,
    contact_id: contract.contact_id,
    quote_id: contract.quote_id,
    deal_id: contract.deal_id,
    contract_type: contract.contract_type,
    // Only drafts and active contracts are edited; an expired one keeps its state (not sent).
    status: contract.status === "draft" ? "draft" : "active",
    start_date: contract.start_date,
    end_date: contract.end_date,
    value: contract.value,
    value_includes_vat: contract.value_includes_vat,
    vat_amount: contract.vat_amount ?? "",
    withholding_amount: contract.withholding_amount ?? "",
    withholding_rate: (withholdingRates as readonly string[]).includes(contract.withholding_rate ?? "") ? (contract.withholding_rate as (typeof withholdingRates)[number]) : null,
    currency: contract.currency,
    customer_signed_on: contract.customer_signed_on,
    company_signed_on: contract.company_signed_on,
    auto_renew: contract.auto_renew,
    renewal_notice_days: contract.renewal_notice_days,
    renewal_term_months: contract.renewal_term_months,
    notes: contract.notes ?? "",
  };
}

/**
 * What the database gets. The status only when it changes (draft → active: an expired
 * contract's status is not the form's to set); empty numbers take the defaults.
 */
export function contractValuesOf(form: ContractFormValues, before?: Contract): Partial<ContractValues> {
  const values: Partial<ContractValues> = {
    title: form.title.trim(),
    customer_id: form.customer_id,
    contact_id: form.contact_id,
    quote_id: form.quote_id,
    deal_id: form.deal_id,
    contract_type: form.contract_type,
    start_date: form.start_date || null,
    end_date: form.end_date || null,
    value: form.value.trim() === "" ? "0" : form.value.trim(),
    value_includes_vat: form.value_includes_vat,
    vat_amount: form.vat_amount.trim() === "" ? null : form.vat_amount.trim(),
    withholding_amount: form.withholding_amount.trim() === "" ? null : form.withholding_amount.trim(),
    withholding_rate: form.withholding_amount.trim() === "" ? null : form.withholding_rate,
    currency: form.currency,
    customer_signed_on: form.customer_signed_on || null,
    company_signed_on: form.company_signed_on || null,
    auto_renew: form.auto_renew,
    renewal_notice_days: form.renewal_notice_days === "" ? 30 : form.renewal_notice_days,
    renewal_term_months: form.renewal_term_months === "" ? 12 : form.renewal_term_months,
    notes: form.notes.trim() === "" ? null : form.notes.trim(),
  };
  if (!before || (before.status === "draft" && form.status !== "draft")) values.status = form.status;
  return values;
}
