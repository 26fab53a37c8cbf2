/** Custom-field declarations for the unit tests of this folder: one of each kind that behaves differently. */
import type { CustomField, CustomFieldType } from "./custom-fields.ts";

export function testField(type: CustomFieldType, overrides: Partial<CustomField> = {}): CustomField {
  return {
    key: `cf_${type}`,
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
