/**
 * The organization's custom fields in quote and contract documents (DESIGN.md D11):
 * `{{customer.<key>}}`, `{{contact.<key>}}`, `{{deal.<key>}}`, `{{quote.<key>}}` and
 * `{{contract.<key>}}` print the field's value of the document's record, formatted as the
 * list shows it (in the document's language), a link as the linked record's name. The
 * template editor offers the same placeholders by the fields' labels.
 */
import { useQueries, type QueryClient } from "@tanstack/react-query";
import {
  customPlaceholder,
  type CustomPlaceholder,
  type CustomPlaceholderGroup,
  type TemplateKind,
} from "@/lib/document-template/placeholders.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { recordBaseSchema, recordQueryOptions } from "../record-api.ts";
import { linkedRecord, recordPickerSources } from "../record-links.ts";
import { customLabel, declaredFields, moduleDeclarationsQueryOptions, shownCustomFields, type CustomField } from "./custom-fields.ts";
import { formatCustomValue } from "./custom-field-values.ts";
import type { CustomCellContext } from "./list-cells.ts";

/** Each placeholder prefix's module. */
export const customPlaceholderModules = {
  customer: "customers",
  contact: "contacts",
  deal: "deals",
  quote: "quotes",
  contract: "contracts",
} as const satisfies Record<CustomPlaceholderGroup, keyof typeof recordPickerSources>;

/**
 * The placeholder a document template prints a module's field with ({{customer.cf_sektor_kodu}}),
 * as the admin's field editor shows it; null for a module no template reads.
 */
export function customFieldPlaceholder(module: ModuleKey, key: string): string | null {
  const groups = Object.keys(customPlaceholderModules) as CustomPlaceholderGroup[];
  const group = groups.find((candidate) => customPlaceholderModules[candidate] === module);
  return group ? `{{${customPlaceholder(group, key)}}}` : null;
}

/** The records a kind of document prints custom fields of: its own, its customer, contact and deal. */
export const customPlaceholderGroupsOf: Record<TemplateKind, readonly CustomPlaceholderGroup[]> = {
  quote: ["customer", "contact", "deal", "quote"],
  contract: ["customer", "contact", "deal", "contract"],
};

/** Where a document's record of one prefix comes from: the record as read already, or its id. */
export type CustomPlaceholderSource = { record: Record<string, unknown> } | { id: string | null | undefined };

/**
 * The values of a record's custom fields as placeholders: every shown field, its text as the
 * record page reads it (in the document's language, `context`), or "" when the record holds
 * none or there is no record (the placeholder is known and prints nothing); a link's text is
 * the linked record's name as the record answer gives it beside the id (private.link_names_sql).
 */
export function customPlaceholderTexts(
  group: CustomPlaceholderGroup,
  fields: readonly CustomField[] | undefined,
  record: Record<string, unknown> | null,
  context: CustomCellContext,
): Partial<Record<CustomPlaceholder, string>> {
  return Object.fromEntries(
    shownCustomFields(fields).map((field) => {
      const linkedName = record ? (linkedRecord(record, field.key)?.name ?? null) : null;
      return [customPlaceholder(group, field.key), formatCustomValue(field, record?.[field.key], { ...context, linkedName }) ?? ""];
    }),
  );
}

/**
 * The custom placeholders' values of one document: each prefix's fields (read once, kept) and
 * record (given, or read by id: the document's answer names its customer, contact and deal
 * without their custom fields), links named. Fields or a record that cannot be read give no
 * values, so their placeholders stay as written, as any unknown one.
 */
export async function customPlaceholderValues(
  queryClient: QueryClient,
  scope: OrganizationScope,
  sources: Partial<Record<CustomPlaceholderGroup, CustomPlaceholderSource>>,
  context: CustomCellContext,
): Promise<Partial<Record<CustomPlaceholder, string>>> {
  const groups = Object.entries(sources) as [CustomPlaceholderGroup, CustomPlaceholderSource][];
  const parts = await Promise.all(
    groups.map(async ([group, source]) => {
      const module = customPlaceholderModules[group];
      const fields = await queryClient.fetchQuery(moduleDeclarationsQueryOptions(scope, module)).then(declaredFields, () => null);
      if (!fields) return {};
      let record: Record<string, unknown> | null = null;
      if ("record" in source) record = source.record;
      else if (source.id) {
        const { entity } = recordPickerSources[module];
        record = await queryClient.fetchQuery(recordQueryOptions(scope, module, entity, source.id, recordBaseSchema)).catch(() => null);
      }
      return customPlaceholderTexts(group, fields, record, context);
    }),
  );
  return Object.assign({}, ...parts) as Partial<Record<CustomPlaceholder, string>>;
}

/** The custom placeholders a kind of template may use, by prefix, each with its field's label. */
export function useCustomPlaceholders(kind: TemplateKind, language: string | undefined) {
  const scope = useOrganizationScope();
  const groups = customPlaceholderGroupsOf[kind];
  const answers = useQueries({
    queries: groups.map((group) => ({ ...moduleDeclarationsQueryOptions(scope, customPlaceholderModules[group]), select: declaredFields })),
  });
  return groups.flatMap((group, index) => {
    const names = shownCustomFields(answers[index].data).map((field) => ({
      name: customPlaceholder(group, field.key),
      label: customLabel(field, language),
    }));
    return names.length > 0 ? [{ group, names }] : [];
  });
}
