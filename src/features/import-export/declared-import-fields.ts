/**
 * A module's import kind with its declared fields (DESIGN.md D11): the module's standard fields
 * (private.module_fields) and the organization's custom ones, from the one list_custom_fields
 * answer every screen of the module derives its fields from. A field's cell goes to the import
 * RPCs under its key, read as its type says (numbers, yes/no, an option's value, a list of
 * option values, a calendar date); a header matches its Turkish or English label or one of its
 * declared import names, an option its value, either label or its import names. A standard
 * link imports as a reference named by the linked record's title, under the link's name
 * without "_id" (customer_id → customer: the server resolves it within the organization).
 */
import { customLabel, shownCustomFields, type CustomFieldType, type ModuleDeclarations } from "@/components/records/custom-fields/custom-fields.ts";
import { idField, importKind, type FieldType, type ImportField, type ImportKind, type ImportKindDefinition } from "./kinds.ts";

/** How a declared field's cell is read (a custom link is no import target: a file names records, the field takes an id). */
const declaredTypes: Partial<Record<CustomFieldType | "tags", FieldType>> = {
  text: "text",
  long_text: "text",
  email: "text",
  phone: "text",
  url: "text",
  number: "number",
  percent: "number",
  money: "money",
  date: "date",
  datetime: "datetime",
  boolean: "boolean",
  choice: "enum",
  multi_choice: "options",
  tags: "tags",
};

interface Declared {
  key: string;
  type: string;
  label_tr: string;
  label_en: string | null;
  options: readonly { value: string; label_tr: string; label_en: string | null; import_names?: readonly string[] }[];
  import_names?: readonly string[];
}

/** Both labels and the declared import names: what a header (or an option's cell) may say. */
const names = (item: { label_tr: string; label_en: string | null; import_names?: readonly string[] }) => [
  item.label_tr,
  ...(item.label_en ? [item.label_en] : []),
  ...(item.import_names ?? []),
];

function importField(field: Declared, type: FieldType, language: string | undefined, key = field.key): ImportField {
  return {
    key,
    label: { text: customLabel(field, language) },
    type,
    aliases: names(field),
    ...(field.options.length > 0
      ? { options: field.options.map((option) => ({ key: option.value, label: { text: customLabel(option, language) }, aliases: names(option) })) }
      : {}),
  };
}

/** A writable standard field as an import field: its type's, a link as a reference; structured ones are the module's own screens'. */
function standardImportField(field: ModuleDeclarations["standard"][number], language: string | undefined): ImportField[] {
  if (!field.writable) return [];
  if (field.type === "link") return [importField(field, "reference", language, field.key.replace(/_id$/, ""))];
  const type = declaredTypes[field.type as CustomFieldType | "tags"];
  return type ? [importField(field, type, language)] : [];
}

/**
 * A kind with every field it has: the record id, the module's declared standard fields in
 * their order, the fields only importing has, the organization's shown custom fields, and the
 * owner last. Products (no module of their own) and a kind whose declarations cannot be read
 * have their own fields only.
 */
export function importDefinition(kind: ImportKind, declarations: ModuleDeclarations | undefined, language: string | undefined): ImportKindDefinition {
  const definition = importKind(kind);
  if (definition.kind !== definition.module || declarations === undefined) return definition;
  const standard = declarations.standard
    .toSorted((a, b) => a.position - b.position)
    .flatMap((field) => standardImportField(field, language))
    .map((field) => (definition.openOptions?.includes(field.key) ? { ...field, openOptions: true } : field));
  const custom = shownCustomFields(declarations.custom)
    .filter((field) => !field.standard)
    .flatMap((field) => {
      const type = declaredTypes[field.type];
      return type ? [importField(field, type, language)] : [];
    });
  const owner = definition.fields.filter((field) => field.key === "owner");
  const special = definition.fields.filter((field) => field.key !== "owner");
  return { ...definition, fields: [idField, ...standard, ...special, ...custom, ...owner] };
}
