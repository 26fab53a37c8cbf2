/**
 * A module's fields drawn from their declarations (DESIGN.md D11): what list_custom_fields
 * answers for a module, read once per module and kept, so that every screen of the module
 * (form, record page, list columns and filters, export, import mapping, PDF placeholders)
 * derives the same fields from the same declarations. They are the organization's custom
 * fields and the module's standard fields that no screen of the module draws with inputs of
 * its own (private.module_fields: not own_ui), so that a standard field added to a module is
 * its declaration and its column. Each is a real column of the organization's table; its key
 * (cf_… for a custom field) is the column's name and the key its value travels under in
 * p_values and in the record answers.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import { useOrganizationScope, type OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";

/** The types an admin may give a custom field (private.custom_field_types). */
export const customFieldTypes = [
  "text",
  "long_text",
  "number",
  "money",
  "percent",
  "date",
  "datetime",
  "boolean",
  "choice",
  "multi_choice",
  "email",
  "phone",
  "url",
  "link",
] as const;
export type CustomFieldType = (typeof customFieldTypes)[number];

/** Types whose values are text: searchable, and length-limited. */
export const textCustomFieldTypes = ["text", "long_text", "email", "phone", "url"] as const satisfies readonly CustomFieldType[];
/** Types with a list of options. */
export const choiceCustomFieldTypes = ["choice", "multi_choice"] as const satisfies readonly CustomFieldType[];
/** Types whose values are numbers (ranges in filters). */
export const numericCustomFieldTypes = ["number", "money", "percent"] as const satisfies readonly CustomFieldType[];

/** At most this many custom fields in one module of one organization (private.custom_field_limits). */
export const MAX_CUSTOM_FIELDS = 100;
/** At most this many characters in a text custom field, and in a long text one. */
export const CUSTOM_TEXT_MAX = 1000;
export const CUSTOM_LONG_TEXT_MAX = 10000;

export const customFieldOptionSchema = z.object({
  /** What a record stores (stable: renaming the option changes its labels only). */
  value: z.string(),
  label_tr: z.string(),
  label_en: z.string().nullable(),
  /** A Mantine colour name, or none. */
  color: z.string().nullable(),
});
export type CustomFieldOption = z.infer<typeof customFieldOptionSchema>;

export const customFieldSchema = z.object({
  key: z.string().regex(/^[a-z][a-z0-9_]{0,62}$/),
  /** A standard field of the module (its declaration is the product's), not the organization's own. */
  standard: z.boolean().default(false),
  /**
   * Drawn from its declaration on every screen (a custom field, or a standard one no screen
   * draws itself); false for a standard field the module's screens draw with their own inputs,
   * whose rules the form still takes from here (its type's, when the module has none of its own).
   */
  drawn: z.boolean().default(true),
  /** A text's characters at most, when its declaration says (else the type's: CUSTOM_TEXT_MAX, CUSTOM_LONG_TEXT_MAX). */
  max_length: z.number().int().nullable().default(null),
  type: z.enum(customFieldTypes),
  label_tr: z.string(),
  label_en: z.string().nullable(),
  required: z.boolean(),
  /** The options of a choice or multi_choice field, in order; empty for other types. */
  options: z.array(customFieldOptionSchema),
  /** A money field's currency (ISO 4217); null for other types. */
  currency: z.string().nullable(),
  /** A link field's module; null for other types. */
  link_module: z.string().nullable(),
  position: z.number().int(),
  /** Hidden: kept (with its values) but shown nowhere until shown again. */
  hidden: z.boolean(),
  /** Shown in the list by default (else offered in the column picker). */
  listed: z.boolean(),
  /** Offered as a list filter (and indexed). */
  filterable: z.boolean(),
  /** Matched by the list's search (text types only). */
  searchable: z.boolean(),
  updated_at: z.string(),
});
export type CustomField = z.infer<typeof customFieldSchema>;

/** A standard field's declaration (private.module_fields), as list_custom_fields answers it. */
const standardFieldSchema = z.object({
  key: z.string(),
  type: z.string(),
  label_tr: z.string(),
  label_en: z.string(),
  required: z.boolean(),
  max_length: z.number().int().nullable(),
  /** A choice's options, each with the words an import file may use for it besides its labels. */
  options: z.array(z.object({ value: z.string(), label_tr: z.string(), label_en: z.string(), import_names: z.array(z.string()) })),
  link_module: z.string().nullable(),
  position: z.number().int(),
  writable: z.boolean(),
  listed: z.boolean(),
  sortable: z.boolean(),
  filterable: z.boolean(),
  own_rule: z.boolean(),
  own_ui: z.boolean(),
  /** Header names an import file may use for it besides its labels. */
  import_names: z.array(z.string()),
});
export type StandardField = z.infer<typeof standardFieldSchema>;

const listAnswerSchema = z.object({
  success: z.literal(true),
  fields: z.array(customFieldSchema),
  standard_fields: z.array(standardFieldSchema),
});

/**
 * The standard fields as fields of the same shape as a custom one, before the organization's
 * own: those every screen draws from their declarations (not own_ui), and, not drawn, those
 * the module's screens draw themselves but whose rules are their types' (not own_rule: their
 * form's checks come from the declaration). Read-only ones and links (the module's pickers)
 * are left out.
 */
export function declaredStandardFields(standard: readonly StandardField[]): CustomField[] {
  return standard
    .filter((field) => field.writable && (!field.own_ui || (!field.own_rule && field.type !== "link")))
    .flatMap((field): CustomField[] => {
      const type = customFieldTypes.find((known) => known === field.type);
      if (!type) return [];
      return [
        {
          key: field.key,
          standard: true,
          drawn: !field.own_ui,
          max_length: field.max_length,
          type,
          label_tr: field.label_tr,
          label_en: field.label_en,
          required: field.required,
          options: field.options.map(({ value, label_tr, label_en }) => ({ value, label_tr, label_en, color: null })),
          currency: null,
          link_module: field.link_module,
          // Before the custom fields (theirs count from 1).
          position: field.position - 10_000,
          hidden: false,
          listed: field.listed,
          filterable: field.filterable,
          searchable: false,
          updated_at: "",
        },
      ];
    });
}

export const customFieldKeys = {
  module: (scope: OrganizationScope, module: ModuleKey) => queryKeys.organization(scope, `custom-fields:${module}`),
};

/** Every declaration of a module as the database answers it: its standard fields, and the organization's custom ones. */
export interface ModuleDeclarations {
  standard: readonly StandardField[];
  custom: readonly CustomField[];
}

/** A module's declarations, read once per module and organization and kept (each screen derives what it needs from them). */
export function moduleDeclarationsQueryOptions(scope: OrganizationScope, module: ModuleKey) {
  return queryOptions({
    queryKey: customFieldKeys.module(scope, module),
    queryFn: async (): Promise<ModuleDeclarations> => {
      const answer = await rpc("list_custom_fields", { p_module: module }, listAnswerSchema);
      return { standard: answer.standard_fields, custom: answer.fields };
    },
    staleTime: 60_000,
  });
}

/** The fields drawn from their declarations or ruled by them (declaredStandardFields), then the organization's custom ones. */
export function declaredFields(declarations: ModuleDeclarations): CustomField[] {
  return [...declaredStandardFields(declarations.standard), ...declarations.custom];
}

/** A module's declarations in the session's organization. */
export function useModuleDeclarations(module: ModuleKey) {
  const scope = useOrganizationScope();
  return useQuery(moduleDeclarationsQueryOptions(scope, module));
}

/** Every field of a module drawn from its declaration in the session's organization (custom ones hidden included), in order. */
export function useCustomFields(module: ModuleKey) {
  const scope = useOrganizationScope();
  return useQuery({ ...moduleDeclarationsQueryOptions(scope, module), select: declaredFields });
}

/** The fields a screen shows from their declarations: drawn, not hidden, in the admin's order. */
export function shownCustomFields(fields: readonly CustomField[] | undefined): CustomField[] {
  return (fields ?? []).filter((field) => field.drawn && !field.hidden).toSorted((a, b) => a.position - b.position);
}

/** The standard fields a module's form draws itself whose rules its declarations give (at the form's own paths). */
export function ruledStandardFields(fields: readonly CustomField[] | undefined): CustomField[] {
  return (fields ?? []).filter((field) => field.standard && !field.drawn);
}

/** A field's label, or an option's, in the interface's language (Turkish when no English one was given). */
export function customLabel(item: { label_tr: string; label_en: string | null }, language: string | undefined): string {
  return language === "en" && item.label_en ? item.label_en : item.label_tr;
}
