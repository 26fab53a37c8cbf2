/**
 * The admin's custom-field editor: a field as it is being written (a draft), the p_field the
 * server is sent (save_custom_field), and what the browser checks first (the server checks
 * the same and more; its answers land on the same inputs: custom-field-errors.ts).
 */
import {
  textCustomFieldTypes,
  type CustomField,
  type CustomFieldType,
} from "@/components/records/custom-fields/custom-fields.ts";
import { recordPickerSources, type PickableModule } from "@/components/records/record-links.ts";
import type { Json } from "@/types/database.types.ts";

/** At most this many characters in a field's or an option's label (private.custom_field_limits' label_max). */
export const LABEL_MAX = 60;

/** The colours an option may have (Mantine's palette). */
export const optionColors = ["gray", "red", "pink", "grape", "violet", "indigo", "blue", "cyan", "teal", "green", "lime", "yellow", "orange"] as const;

/** The currencies offered first for a money field (any ISO code may be typed). */
export const moneyCurrencies = ["TRY", "USD", "EUR", "GBP"] as const;

/** The modules a link field may point to: those whose records a picker can find. */
export const linkModules = Object.keys(recordPickerSources) as PickableModule[];

export interface OptionDraft {
  /** Stable while the editor is open (React keys); never sent. */
  id: string;
  /** The stored value of an option that exists; null for a new one (the server takes it from the Turkish label). */
  value: string | null;
  label_tr: string;
  label_en: string;
  color: string | null;
}

export interface FieldDraft {
  /** The key of the field being changed; null for a new field. */
  key: string | null;
  updated_at: string | null;
  type: CustomFieldType;
  label_tr: string;
  label_en: string;
  required: boolean;
  hidden: boolean;
  listed: boolean;
  filterable: boolean;
  searchable: boolean;
  options: OptionDraft[];
  currency: string;
  link_module: PickableModule | null;
}

let optionCounter = 0;
function optionId(): string {
  optionCounter += 1;
  return `option-${optionCounter}`;
}

export function newOption(): OptionDraft {
  return { id: optionId(), value: null, label_tr: "", label_en: "", color: null };
}

export const isTextType = (type: CustomFieldType) => (textCustomFieldTypes as readonly string[]).includes(type);
export const isChoiceType = (type: CustomFieldType) => type === "choice" || type === "multi_choice";
/** A long text is too long for the sorted index a filter needs. */
export const canFilter = (type: CustomFieldType) => type !== "long_text";

/** A field in the editor: a saved one as it is, or a new text field. */
export function draftOf(field: CustomField | null): FieldDraft {
  if (!field) {
    return {
      key: null, updated_at: null, type: "text", label_tr: "", label_en: "", required: false, hidden: false, listed: false,
      filterable: false, searchable: false, options: [], currency: "TRY", link_module: null,
    };
  }
  return {
    key: field.key,
    updated_at: field.updated_at,
    type: field.type,
    label_tr: field.label_tr,
    label_en: field.label_en ?? "",
    required: field.required,
    hidden: field.hidden,
    listed: field.listed,
    filterable: field.filterable,
    searchable: field.searchable,
    options: field.options.map((option) => ({ id: optionId(), value: option.value, label_tr: option.label_tr, label_en: option.label_en ?? "", color: option.color })),
    currency: field.currency ?? "TRY",
    link_module: field.link_module !== null && (linkModules as string[]).includes(field.link_module) ? (field.link_module as PickableModule) : null,
  };
}

const orNull = (text: string) => (text.trim() === "" ? null : text.trim());

/**
 * The p_field of save_custom_field: what only some types have is sent for those types only
 * (options, currency, link module), and searchable only for text, filterable never for long
 * text, so that a change of type leaves nothing the new type cannot have.
 */
export function fieldPayload(draft: FieldDraft): Record<string, Json> {
  return {
    ...(draft.key ? { key: draft.key, updated_at: draft.updated_at } : {}),
    type: draft.type,
    label_tr: draft.label_tr.trim(),
    label_en: orNull(draft.label_en),
    required: draft.required,
    hidden: draft.hidden,
    listed: draft.listed,
    filterable: canFilter(draft.type) && draft.filterable,
    searchable: isTextType(draft.type) && draft.searchable,
    options: isChoiceType(draft.type)
      ? draft.options.map((option) => ({ value: option.value, label_tr: option.label_tr.trim(), label_en: orNull(option.label_en), color: option.color }))
      : [],
    currency: draft.type === "money" ? draft.currency : null,
    link_module: draft.type === "link" ? draft.link_module : null,
  };
}

/** The draft's inputs the browser and the server name errors by. */
export type DraftField = "key" | "type" | "label_tr" | "label_en" | "options" | "currency" | "link_module" | "filterable" | "searchable";

/** The browser's checks (codes as the server's): labels given and short enough, choices with options, a link's module. */
export function draftErrors(draft: FieldDraft): Partial<Record<DraftField, string>> {
  const errors: Partial<Record<DraftField, string>> = {};
  if (draft.label_tr.trim() === "") errors.label_tr = "required";
  else if (draft.label_tr.trim().length > LABEL_MAX) errors.label_tr = "too_long";
  if (draft.label_en.trim().length > LABEL_MAX) errors.label_en = "too_long";
  if (isChoiceType(draft.type)) {
    if (draft.options.length === 0 || draft.options.some((option) => option.label_tr.trim() === "")) errors.options = "required";
    else if (draft.options.some((option) => option.label_tr.trim().length > LABEL_MAX || option.label_en.trim().length > LABEL_MAX)) {
      errors.options = "too_long";
    }
  }
  if (draft.type === "money" && !/^[A-Z]{3}$/.test(draft.currency)) errors.currency = "invalid";
  if (draft.type === "link" && draft.link_module === null) errors.link_module = "required";
  return errors;
}
