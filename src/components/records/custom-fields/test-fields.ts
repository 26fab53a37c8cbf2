/** Custom-field declarations and the formatter's texts for the unit tests of custom fields (this folder's, the import's). */
import type { CustomValueContext, CustomValueText } from "./custom-field-values.ts";
import type { CustomField, CustomFieldType, StandardField } from "./custom-fields.ts";

export function testField(type: CustomFieldType, overrides: Partial<CustomField> = {}): CustomField {
  return {
    key: `cf_${type}`,
    standard: false,
    drawn: true,
    max_length: null,
    type,
    label_tr: `Alan ${type}`,
    label_en: null,
    required: false,
    options: [],
    currency: type === "money" ? "TRY" : null,
    link_module: type === "link" ? "customers" : null,
    position: 1,
    hidden: false,
    listed: false,
    filterable: false,
    searchable: false,
    updated_at: "2026-11-28T12:00:00Z",
    ...overrides,
  };
}

export const sectorOptions = [
  { value: "a", label_tr: "A sınıfı", label_en: "Class A", color: "green" },
  { value: "b", label_tr: "B sınıfı", label_en: null, color: null },
  { value: "c", label_tr: "C sınıfı", label_en: null, color: "red" },
];

const valueWords: Record<Parameters<CustomValueText>[0], string> = {
  "common.yes": "Evet",
  "common.no": "Hayır",
  "records.list.linkHidden": "Erişiminiz olmayan kayıt",
};

/** The formatter's texts (the Turkish catalogue's), and contexts of the interface in Turkish and in English. */
export const testValueText: CustomValueText = (key) => valueWords[key];
export const trValues = { language: "tr", t: testValueText } satisfies CustomValueContext;
export const enValues = { language: "en", t: testValueText } satisfies CustomValueContext;

/** A standard field's declaration as list_custom_fields answers it (standard_fields), drawn by the module's own screens unless told. */
export function testStandardField(key: string, type: string, overrides: Partial<StandardField> = {}): StandardField {
  return {
    key,
    type,
    label_tr: key,
    label_en: key,
    required: false,
    max_length: null,
    options: [],
    link_module: null,
    position: 1,
    writable: true,
    listed: true,
    sortable: false,
    filterable: false,
    own_rule: false,
    own_ui: true,
    import_names: [],
    ...overrides,
  };
}
