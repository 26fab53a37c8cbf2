/**
 * A record's related records (a customer's deals, a deal's quotes, ...): the one way every
 * record page lists them. A module's records linked by one of its foreign-key columns, or
 * through a link table (a contact's deals, by the deal's contacts: private.module_link_filters),
 * are read with that module's own list RPC (list_<module> with a filter on the link: the
 * caller's permissions and scope apply in SQL, as on the module's list), and a "new" record of
 * that module starts with the links already filled in: in the form the app supplies for it
 * (record-forms.tsx), else from its create route (newRecordPath).
 */
import { useQueries, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import type { ModuleKey } from "@/modules/registry.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import type { Json } from "@/types/database.types.ts";
import { taskRowSchema } from "@/components/tasks/task-row.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { recordBaseSchema, recordListQueryOptions, useRefreshPermissionsOnDenial, type RecordListArgs } from "./record-api.ts";

/** The foreign-key columns that link a record to a customer, contact, deal or quote. */
export const linkColumns = ["customer_id", "contact_id", "deal_id", "quote_id"] as const;
export type LinkColumn = (typeof linkColumns)[number];

/** The links a new record starts with (from the page it is created on). */
export type RecordLinks = Partial<Record<LinkColumn, string | null | undefined>>;

/** How many related records a page shows; the count in the tab says how many there are. */
export const RELATED_LIMIT = 50;

/** A name the engine adds to a list row for each of its links (`<link>_name`); absent until it does. */
const linkNames = {
  customer_name: z.string().nullable().optional(),
  contact_name: z.string().nullable().optional(),
  deal_name: z.string().nullable().optional(),
  quote_name: z.string().nullable().optional(),
};
const optionalText = z.string().nullable().optional().transform((value) => value ?? null);
const optionalDecimal = z
  .union([z.string(), z.number().transform(String)])
  .nullable()
  .optional()
  .transform((value) => value ?? null);

/** The list columns each related list reads (the modules' listed fields, private.module_fields), loosely: a list shows a few. */
export const relatedRowSchemas = {
  contacts: recordBaseSchema.extend({
    ...linkNames,
    customer_id: optionalText,
    first_name: optionalText,
    last_name: optionalText,
    title: optionalText,
    emails: z.array(z.looseObject({ value: z.string() })).catch([]),
    phones: z.array(z.looseObject({ value: z.string() })).catch([]),
  }),
  deals: recordBaseSchema.extend({
    ...linkNames,
    title: z.string(),
    stage: z.string(),
    amount: z.union([z.number(), z.string().transform(Number)]),
    currency: z.string(),
    expected_close_date: optionalText,
  }),
  quotes: recordBaseSchema.extend({
    ...linkNames,
    quote_number: optionalText,
    revision: z.number().nullable().optional(),
    status: z.enum(["draft", "sent", "accepted", "rejected", "expired"]).catch("draft"),
    quote_date: optionalText,
    currency: optionalText,
    grand_total: optionalDecimal,
  }),
  contracts: recordBaseSchema.extend({
    ...linkNames,
    contract_number: optionalText,
    title: z.string(),
    status: z.enum(["draft", "active", "expired", "terminated", "renewed"]).catch("draft"),
    end_date: optionalText,
    value: optionalDecimal,
    currency: z.string(),
  }),
  tasks: taskRowSchema.extend(linkNames),
} as const;

/** A module whose records a record page lists. */
export type RelatedModule = keyof typeof relatedRowSchemas;
export type RelatedRow<Module extends RelatedModule> = z.output<(typeof relatedRowSchemas)[Module]>;

/** Each related list's order and the filters that make the list what it is. */
const relatedLists: Record<RelatedModule, { sort: string; descending: boolean; defining?: Record<string, Json> }> = {
  contacts: { sort: "last_name", descending: false },
  deals: { sort: "updated_at", descending: true },
  // Older revisions are the quote's history: its page lists them.
  quotes: { sort: "updated_at", descending: true, defining: { is_latest: true } },
  contracts: { sort: "updated_at", descending: true },
  tasks: { sort: "due_at", descending: false },
};

/** Which of a module's records are related: those whose `column` (or link table's, for a contact's deals) is the record's id. */
export interface RelatedLink {
  column: LinkColumn;
  id: string;
}

/** The list RPC's arguments for one module's records linked to one record. */
export function relatedListArgs(module: RelatedModule, link: RelatedLink): RecordListArgs {
  const list = relatedLists[module];
  return {
    p_filters: { ...list.defining, [link.column]: link.id },
    p_sort: list.sort,
    p_descending: list.descending,
    p_limit: RELATED_LIMIT,
    p_offset: 0,
  };
}

/** Where a new record of each module is created: a list page opening its form, or the quote editor. */
const createPaths: Record<RelatedModule, { path: string; opens?: Record<string, string> }> = {
  contacts: { path: "/contacts", opens: { new: "1" } },
  deals: { path: "/deals", opens: { new: "1" } },
  quotes: { path: "/quotes/new" },
  contracts: { path: "/contracts", opens: { new: "1" } },
  tasks: { path: "/tasks", opens: { new: "1" } },
};

/**
 * The address that opens a module's create form with the links filled in (e.g.
 * /quotes/new?customer_id=…&deal_id=…): the module's page reads them (readRecordLinks).
 * Features may not import each other's forms, so a record page reaches another module's form
 * through its route, as a bookmark or a reload would.
 */
export function newRecordPath(module: RelatedModule, links: RecordLinks): string {
  const { path, opens } = createPaths[module];
  const params = new URLSearchParams(opens);
  for (const column of linkColumns) {
    const id = links[column];
    if (id) params.set(column, id);
  }
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The links a create route was opened with (newRecordPath's parameters); anything but a record id is left out. */
export function readRecordLinks(params: URLSearchParams): Partial<Record<LinkColumn, string>> {
  const links: Partial<Record<LinkColumn, string>> = {};
  for (const column of linkColumns) {
    const id = params.get(column);
    if (id && uuid.test(id)) links[column] = id;
  }
  return links;
}

/** What the caller may do with a module's related records: see them (the tab), create one. */
export function relatedAccess(
  permissions: Record<string, Record<string, "own" | "all">> | undefined,
  module: ModuleKey,
): { canView: boolean; canCreate: boolean } {
  const allowed = permissions?.[module] ?? {};
  return { canView: allowed.view !== undefined, canCreate: allowed.create !== undefined };
}

/** A tab's label with its count ("Teklifler (3)"), the count once known; "10.000+" beyond the exact count. */
export function countedLabel(label: string, total: { total: number; total_exact: boolean } | undefined, formatCount: (value: number) => string) {
  if (!total) return label;
  return `${label} (${formatCount(total.total)}${total.total_exact ? "" : "+"})`;
}

/** One module's records linked to a record (the same query the tab's count reads). */
export function useRelatedRecords<Module extends RelatedModule>(module: Module, link: RelatedLink, enabled = true) {
  const scope = useOrganizationScope();
  const onDenied = useRefreshPermissionsOnDenial();
  // No placeholder from another record's list: a page moved to another record shows none of the last one's.
  return useQuery({ ...recordListQueryOptions(scope, module, relatedRowSchemas[module], relatedListArgs(module, link), onDenied), enabled });
}

/** One related list of a record page: the module, and the link its records have to the record. */
export interface RelatedSpec {
  module: RelatedModule;
  link: RelatedLink;
}

/**
 * The counts of a record page's related lists, for their tab labels, and whether the caller
 * may view each module (a tab is shown only then). The lists are the ones useRelatedRecords
 * reads (the same query), so a tab opened later shows what its label counted without asking again.
 */
export function useRelatedCounts(specs: readonly RelatedSpec[]) {
  const scope = useOrganizationScope();
  const onDenied = useRefreshPermissionsOnDenial();
  const permissions = useMyPermissions();
  const granted = permissions.data?.permissions;
  const visible = specs.map((spec) => relatedAccess(granted, spec.module).canView);
  const counts = useQueries({
    queries: specs.map((spec, index) => ({
      ...recordListQueryOptions(scope, spec.module, relatedRowSchemas[spec.module], relatedListArgs(spec.module, spec.link), onDenied),
      enabled: visible[index],
    })),
  });
  return specs.map((spec, index) => ({ ...spec, visible: visible[index], count: counts[index].data }));
}
