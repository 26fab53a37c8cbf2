/**
 * The quotes module's calls: the list (the record engine's façade), one quote with its lines,
 * totals and revisions (get_quote_details), the totals of a quote being written
 * (preview_quote_totals: the same SQL as a save, nothing stored), saving (save_quote), the
 * workflow (send, accept, reject, revise), a contract from a quote, and the product list.
 * Money and rates arrive as strings of numerics ("1234.50"): the screens format them and
 * never add them.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { assertRecordId, recordBaseSchema, recordKeys, useInvalidateRecords } from "@/components/records/record-api.ts";
import { rpc } from "@/lib/call-rpc.ts";
import { useOrganizationScope, type OrganizationScope } from "@/session/organization-scope.ts";
import type { Json } from "@/types/database.types.ts";

/** An exact decimal as the database wrote it; a JSON number is taken as its text. */
export const decimal = z.union([z.string(), z.number().transform((value) => String(value))]);
const optionalDecimal = decimal.nullable().optional().transform((value) => value ?? null);

export const quoteStatuses = ["draft", "sent", "accepted", "rejected", "expired"] as const;
export type QuoteStatus = (typeof quoteStatuses)[number];
const statusSchema = z.enum(quoteStatuses);

export const discountTypes = ["percent", "amount"] as const;
export type DiscountType = (typeof discountTypes)[number];
const discountTypeSchema = z.enum(discountTypes).nullable().catch(null);

// ---------------------------------------------------------------------------------
// The list
// ---------------------------------------------------------------------------------

/** A quote's row in the list (its listed fields, private.module_fields). */
export const quoteRowSchema = recordBaseSchema.extend({
  quote_number: z.string().nullable(),
  revision: z.number().nullable().optional(),
  customer_id: z.string().nullable(),
  customer_name: z.string().nullable().optional(),
  deal_id: z.string().nullable().optional(),
  status: statusSchema.catch("draft"),
  quote_date: z.string().nullable().optional(),
  valid_until: z.string().nullable().optional(),
  currency: z.string().nullable().optional(),
  grand_total: optionalDecimal,
  grand_total_try: optionalDecimal,
});
export type QuoteRow = z.infer<typeof quoteRowSchema>;

// ---------------------------------------------------------------------------------
// One quote
// ---------------------------------------------------------------------------------

export const quoteHeaderSchema = z.looseObject({
  id: z.string(),
  quote_number: z.string().nullable(),
  revision: z.number(),
  status: statusSchema,
  quote_date: z.string().nullable(),
  valid_until: z.string().nullable(),
  currency: z.string(),
  exchange_rate: optionalDecimal,
  exchange_rate_date: z.string().nullable().optional(),
  prices_include_vat: z.boolean(),
  document_discount_type: discountTypeSchema,
  document_discount_value: optionalDecimal,
  payment_terms: z.string().nullable(),
  notes: z.string().nullable(),
  owner_id: z.string(),
  owner_name: z.string().nullable(),
  customer_id: z.string().nullable(),
  contact_id: z.string().nullable(),
  deal_id: z.string().nullable(),
  sent_at: z.string().nullable().optional(),
  accepted_at: z.string().nullable().optional(),
  rejected_at: z.string().nullable().optional(),
  rejection_reason: z.string().nullable().optional(),
  locked: z.boolean(),
  exchange_rate_manual: z.boolean().optional(),
  superseded_by: z.string().nullable().optional(),
  updated_at: z.string(),
});
export type QuoteHeader = z.infer<typeof quoteHeaderSchema>;

export const quoteItemSchema = z.looseObject({
  id: z.string().nullable().optional(),
  position: z.number(),
  product_id: z.string().nullable(),
  description: z.string().nullable(),
  quantity: decimal,
  unit: z.string().nullable(),
  unit_price: decimal,
  discount_type: discountTypeSchema,
  discount_value: optionalDecimal,
  vat_rate: decimal,
  vat_exemption_reason: z.string().nullable(),
  withholding_rate: z.string().nullable(),
  line_net: decimal,
  line_vat: decimal,
  line_withholding: optionalDecimal,
  line_gross: decimal,
});
export type QuoteItem = z.infer<typeof quoteItemSchema>;

/** The amounts of one line, as a preview computes them. */
export const lineTotalsSchema = z.looseObject({
  line_net: decimal,
  line_vat: decimal,
  line_withholding: optionalDecimal,
  line_gross: decimal,
});
export type LineTotals = z.infer<typeof lineTotalsSchema>;

export const vatShareSchema = z.object({ rate: decimal, base: decimal, vat: decimal, withholding: optionalDecimal });
export type VatShare = z.infer<typeof vatShareSchema>;

export const quoteTotalsSchema = z.looseObject({
  gross_total: decimal,
  line_discount_total: decimal,
  document_discount_total: decimal,
  net_total: decimal,
  vat_breakdown: z.array(vatShareSchema),
  vat_total: decimal,
  withholding_total: decimal,
  grand_total: decimal,
  grand_total_try: optionalDecimal,
});
export type QuoteTotals = z.infer<typeof quoteTotalsSchema>;

const partySchema = z.looseObject({ id: z.string(), name: z.string().nullable() });

export const quoteDetailsSchema = z.object({
  quote: quoteHeaderSchema,
  items: z.array(quoteItemSchema),
  totals: quoteTotalsSchema,
  customer: partySchema
    .extend({
      tax_number: z.string().nullable().optional(),
      tax_office: z.string().nullable().optional(),
      address: z.string().nullable().optional(),
      city: z.string().nullable().optional(),
      district: z.string().nullable().optional(),
    })
    .nullable(),
  contact: partySchema.extend({ email: z.string().nullable().optional(), phone: z.string().nullable().optional() }).nullable(),
  deal: z.looseObject({ id: z.string(), title: z.string() }).nullable(),
  revisions: z.array(
    z.looseObject({
      id: z.string(),
      revision: z.number(),
      status: statusSchema.catch("draft"),
      quote_date: z.string().nullable(),
      grand_total: optionalDecimal,
      created_at: z.string(),
    }),
  ),
});
export type QuoteDetails = z.infer<typeof quoteDetailsSchema>;

export const quoteKeys = {
  preview: (scope: OrganizationScope, payload: string) => [...recordKeys.all(scope, "quotes"), "preview", payload] as const,
  products: (scope: OrganizationScope, includeInactive: boolean) =>
    [...recordKeys.all(scope, "quotes"), "products", includeInactive] as const,
};

export function quoteDetailsQueryOptions(scope: OrganizationScope, id: string) {
  return queryOptions({
    queryKey: recordKeys.record(scope, "quotes", id),
    queryFn: () => {
      assertRecordId(id);
      return rpc("get_quote_details", { p_id: id }, quoteDetailsSchema);
    },
    retry: false,
  });
}

export function useQuoteDetails(id: string, enabled = true) {
  const scope = useOrganizationScope();
  return useQuery({ ...quoteDetailsQueryOptions(scope, id), enabled });
}

// ---------------------------------------------------------------------------------
// Writing a quote
// ---------------------------------------------------------------------------------

/** The header a save or preview sends (strings for every amount, so nothing is rounded on the way). */
export interface QuoteValues {
  customer_id: string | null;
  contact_id: string | null;
  deal_id: string | null;
  quote_date: string;
  valid_until: string | null;
  currency: string;
  /** An entered rate (kept as is, frozen when sent); null: the organization's rate of the quote's date. */
  exchange_rate: string | null;
  prices_include_vat: boolean;
  payment_terms: string | null;
  notes: string | null;
  /** Null without an overall discount. */
  document_discount_type: DiscountType | null;
  document_discount_value: string;
}

/** One line a save or preview sends. */
export interface QuoteItemValues {
  position: number;
  product_id: string | null;
  description: string;
  quantity: string;
  unit: string | null;
  unit_price: string;
  discount_type: DiscountType;
  discount_value: string;
  vat_rate: string;
  vat_exemption_reason: string | null;
  withholding_rate: string | null;
}

const previewSchema = z.object({
  totals: quoteTotalsSchema,
  lines: z.array(lineTotalsSchema),
  /** The rate the totals used (the entered one, or the organization's of the quote's date), and that rate's date. */
  exchange_rate: optionalDecimal,
  exchange_rate_date: z.string().nullable().optional(),
});
export type QuotePreview = z.infer<typeof previewSchema>;

/**
 * The totals of the quote on screen, from SQL. `payload` is the JSON of {values, items}
 * (already debounced by the caller), so equal payloads share one answer; the last answer
 * stays while the next is on its way.
 */
export function useQuotePreview(payload: string | null) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: quoteKeys.preview(scope, payload ?? ""),
    queryFn: () => {
      const { values, items } = JSON.parse(payload ?? "{}") as { values: QuoteValues; items: QuoteItemValues[] };
      return rpc("preview_quote_totals", { p_values: values as unknown as Json, p_items: items as unknown as Json }, previewSchema);
    },
    enabled: payload !== null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    retry: false,
  });
}

/** What save_quote answers: the quote's id, its new version and its number. */
export const savedQuoteSchema = z.looseObject({ id: z.string(), updated_at: z.string(), quote_number: z.string().nullable() });
export type SavedQuote = z.infer<typeof savedQuoteSchema>;

/**
 * Saves a quote with its lines (save_quote): a new one without base, otherwise the draft read
 * at base.updated_at (stale_record when someone changed it since). The quote editor's save
 * through the record form (useRecordForm's own save).
 */
export function saveQuote(values: object, items: QuoteItemValues[], base: SavedQuote | undefined): Promise<SavedQuote> {
  return rpc(
    "save_quote",
    { p_id: (base?.id ?? null) as string, p_values: values as Json, p_items: items as unknown as Json, p_updated_at: (base?.updated_at ?? null) as string },
    savedQuoteSchema,
  );
}

// ---------------------------------------------------------------------------------
// The workflow
// ---------------------------------------------------------------------------------

const doneSchema = z.looseObject({});
const idSchema = z.object({ id: z.string() });

export function useSendQuote() {
  const invalidate = useInvalidateRecords("quotes");
  return useMutation({
    mutationFn: ({ id, updatedAt }: { id: string; updatedAt: string }) => rpc("send_quote", { p_id: id, p_updated_at: updatedAt }, doneSchema),
    onSettled: invalidate,
  });
}

export function useAcceptQuote() {
  const invalidate = useInvalidateRecords("quotes");
  const invalidateDeals = useInvalidateRecords("deals");
  return useMutation({
    mutationFn: ({ id, updatedAt, markDealWon }: { id: string; updatedAt: string; markDealWon: boolean }) =>
      rpc("accept_quote", { p_id: id, p_updated_at: updatedAt, p_mark_deal_won: markDealWon }, doneSchema),
    onSettled: async () => {
      await Promise.all([invalidate(), invalidateDeals()]);
    },
  });
}

export function useRejectQuote() {
  const invalidate = useInvalidateRecords("quotes");
  return useMutation({
    mutationFn: ({ id, updatedAt, reason }: { id: string; updatedAt: string; reason: string }) =>
      rpc("reject_quote", { p_id: id, p_updated_at: updatedAt, p_reason: reason }, doneSchema),
    onSettled: invalidate,
  });
}

/** A new draft revision of the quote (its lines copied); answers the new quote's id. */
export function useReviseQuote() {
  const invalidate = useInvalidateRecords("quotes");
  return useMutation({
    mutationFn: (id: string) => rpc("revise_quote", { p_id: id }, idSchema),
    onSettled: invalidate,
  });
}

/**
 * A draft contract from an accepted or sent quote, with values for the contract's custom fields
 * when contracts have required ones (asked for after a first try refuses them); answers the
 * contract's id.
 */
export function useCreateContractFromQuote() {
  const invalidate = useInvalidateRecords("contracts");
  return useMutation({
    mutationFn: ({ quoteId, values }: { quoteId: string; values?: Record<string, Json> }) =>
      rpc("create_contract_from_quote", { p_quote_id: quoteId, ...(values ? { p_values: values } : {}) }, idSchema),
    onSuccess: invalidate,
  });
}

// ---------------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------------

export const productSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  unit: z.string().nullable(),
  unit_price: decimal,
  currency: z.string(),
  vat_rate: decimal,
  description: z.string().nullable(),
  active: z.boolean(),
  updated_at: z.string(),
});
export type Product = z.infer<typeof productSchema>;

export interface ProductValues {
  name: string;
  unit: string | null;
  unit_price: string;
  currency: string;
  vat_rate: string;
  description: string | null;
}

export function productsQueryOptions(scope: OrganizationScope, includeInactive: boolean) {
  return queryOptions({
    queryKey: quoteKeys.products(scope, includeInactive),
    queryFn: async () =>
      (await rpc("list_products", { p_include_inactive: includeInactive }, z.object({ products: z.array(productSchema) }))).products,
    staleTime: 60_000,
  });
}

/** The organization's products (the active ones unless asked); the picker filters them as the user types. */
export function useProducts(includeInactive = false) {
  const scope = useOrganizationScope();
  return useQuery(productsQueryOptions(scope, includeInactive));
}

function useInvalidateProducts() {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [...recordKeys.all(scope, "quotes"), "products"] });
}

export function useSaveProduct() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: ({ id, values, updatedAt }: { id: string | null; values: ProductValues; updatedAt: string | null }) =>
      rpc("save_product", { p_id: id as string, p_values: values as unknown as Json, p_updated_at: updatedAt ?? undefined }, doneSchema),
    onSettled: invalidate,
  });
}

export function useSetProductActive() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) => rpc("set_product_active", { p_id: id, p_active: active }, doneSchema),
    onSettled: invalidate,
  });
}
