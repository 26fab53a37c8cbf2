/**
 * The contracts module's calls: the list through the record kit, a contract with its
 * links and renewal chain (get_contract_details), create and update through the record
 * engine, renew_contract, terminate_contract and the contracts ending soon
 * (list_contracts_ending). Money arrives as JSON numbers of SQL numerics and is only
 * formatted here, never added up.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { assertRecordId, recordBaseSchema, recordKeys, useInvalidateRecords } from "@/components/records/record-api.ts";
import { rpc } from "@/lib/call-rpc.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { contractStatuses, contractTypes, type ContractType } from "../utils/contract-fields.ts";

/** An exact decimal from SQL (a JSON number or string) kept as its text, e.g. "120000.5". */
const decimal = z.union([z.number(), z.string()]).transform((value) => String(value));

/** A contract's row in the list (the module's list columns). */
export const contractRowSchema = recordBaseSchema.extend({
  contract_number: z.string().nullable(),
  title: z.string(),
  customer_id: z.string().nullable(),
  contract_type: z.enum(contractTypes),
  status: z.enum(contractStatuses),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  value: decimal,
  currency: z.string(),
  auto_renew: z.boolean(),
  previous_contract_id: z.string().nullable(),
});
export type ContractRow = z.infer<typeof contractRowSchema>;

/** A whole contract (get_contract_details' contract). */
export const contractSchema = contractRowSchema.extend({
  contact_id: z.string().nullable(),
  quote_id: z.string().nullable(),
  deal_id: z.string().nullable(),
  customer_signed_on: z.string().nullable(),
  company_signed_on: z.string().nullable(),
  renewal_notice_days: z.number().int(),
  renewal_term_months: z.number().int(),
  /** Whether value includes KDV; the KDV stated with it (null: not stated). */
  value_includes_vat: z.boolean(),
  vat_amount: decimal.nullable(),
  /** The KDV withheld (tevkifat; null: none) and its ratio ("7/10") when one applies. */
  withholding_amount: decimal.nullable().optional(),
  withholding_rate: z.string().nullable().optional(),
  /** The value with its KDV (SQL's sum; null when the KDV is not stated); in get_contract_details only. */
  total_with_vat: decimal.nullable().optional(),
  /** The value with its KDV less the withheld KDV: what the customer pays (SQL's); in get_contract_details only. */
  payable_total: decimal.nullable().optional(),
  terminated_at: z.string().nullable(),
  termination_reason: z.string().nullable(),
  notes: z.string().nullable(),
  /** Terminated or renewed: history, no longer edited. */
  locked: z.boolean().optional(),
});
export type Contract = z.infer<typeof contractSchema>;

export interface ContractValues {
  title: string;
  customer_id: string | null;
  contact_id: string | null;
  quote_id: string | null;
  deal_id: string | null;
  contract_type: ContractType;
  start_date: string | null;
  end_date: string | null;
  /** A decimal string ("1250.50"): the database reads it exactly. */
  value: string;
  value_includes_vat: boolean;
  /** A decimal string, or null when the KDV is not stated. */
  vat_amount: string | null;
  /** The KDV withheld (tevkifat), a decimal string or null; its ratio ("7/10") or null. */
  withholding_amount: string | null;
  withholding_rate: string | null;
  currency: string;
  status: "draft" | "active";
  customer_signed_on: string | null;
  company_signed_on: string | null;
  auto_renew: boolean;
  renewal_notice_days: number;
  renewal_term_months: number;
  notes: string | null;
}

const termSchema = z.object({
  id: z.string(),
  contract_number: z.string().nullable(),
  status: z.enum(contractStatuses),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
});
export type ContractTerm = z.infer<typeof termSchema>;

const detailsSchema = z.object({
  contract: contractSchema,
  customer: z
    .object({
      id: z.string(),
      name: z.string(),
      tax_number: z.string().nullable(),
      tax_office: z.string().nullable(),
      address: z.string().nullable(),
      city: z.string().nullable(),
      district: z.string().nullable(),
    })
    .nullable(),
  contact: z.object({ id: z.string(), name: z.string(), email: z.string().nullable(), phone: z.string().nullable() }).nullable(),
  quote: z.object({ id: z.string(), quote_number: z.string().nullable() }).nullable(),
  deal: z.object({ id: z.string(), title: z.string() }).nullable(),
  previous: termSchema.nullable(),
  next: termSchema.nullable(),
});
export type ContractDetails = z.infer<typeof detailsSchema>;

export function useContractDetails(id: string) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: recordKeys.record(scope, "contracts", id),
    queryFn: () => {
      assertRecordId(id);
      return rpc("get_contract_details", { p_id: id }, detailsSchema);
    },
    retry: false,
  });
}

/** A contract as its save answers it (without `locked`). */
export const savedContractSchema = contractSchema.partial({ locked: true });
const recordAnswer = z.object({ record: savedContractSchema });

/** The new term's choices: dates as "YYYY-MM-DD", the value as a decimal string and the increase in percent (e.g. "44.38"); null: the default. */
export interface RenewalTerms {
  startDate: string | null;
  endDate: string | null;
  value: string | null;
  increasePercent: string | null;
}

/**
 * The next term of an active or expired contract (as read at updatedAt); answers the new
 * contract's id, number, status (draft, or active when it renews itself) and value.
 */
export function useRenewContract() {
  const invalidate = useInvalidateRecords("contracts");
  return useMutation({
    mutationFn: ({ id, updatedAt, terms }: { id: string; updatedAt: string; terms: RenewalTerms }) =>
      rpc(
        "renew_contract",
        {
          p_id: id,
          p_updated_at: updatedAt,
          ...(terms.startDate ? { p_start_date: terms.startDate } : {}),
          ...(terms.endDate ? { p_end_date: terms.endDate } : {}),
          // Decimal strings: PostgREST hands them to numeric parameters exactly.
          ...(terms.value ? { p_value: terms.value as unknown as number } : {}),
          ...(terms.increasePercent ? { p_increase_percent: terms.increasePercent as unknown as number } : {}),
        },
        z.object({ id: z.string(), contract_number: z.string().nullable(), status: z.enum(contractStatuses), value: decimal }),
      ),
    // A refusal (stale, already renewed) reloads the page too.
    onSettled: invalidate,
  });
}

export function useTerminateContract() {
  const invalidate = useInvalidateRecords("contracts");
  return useMutation({
    mutationFn: async ({ id, updatedAt, reason }: { id: string; updatedAt: string; reason: string }) =>
      (await rpc("terminate_contract", { p_id: id, p_updated_at: updatedAt, p_reason: reason }, recordAnswer)).record,
    onSettled: invalidate,
  });
}

export const endingContractSchema = z.object({
  id: z.string(),
  contract_number: z.string().nullable(),
  title: z.string(),
  customer_id: z.string().nullable(),
  customer_name: z.string().nullable(),
  contract_type: z.enum(contractTypes),
  start_date: z.string().nullable(),
  end_date: z.string(),
  value: decimal,
  currency: z.string(),
  auto_renew: z.boolean(),
  renewal_notice_days: z.number().int(),
  notice_date: z.string(),
  days_left: z.number().int(),
  owner_name: z.string().nullable(),
});
export type EndingContract = z.infer<typeof endingContractSchema>;

/** Active contracts ending within `days` days, soonest first (list_contracts_ending). */
export function useContractsEnding(days: number) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: [...recordKeys.all(scope, "contracts"), "ending", days] as const,
    queryFn: () =>
      rpc("list_contracts_ending", { p_days: days }, z.object({ today: z.string(), contracts: z.array(endingContractSchema) })),
  });
}
