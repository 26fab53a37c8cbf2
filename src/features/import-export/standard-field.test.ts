/**
 * A standard field added to a module is its declaration (private.module_fields) and its column:
 * here contacts gain "nickname" (Lakap), declared as the database answers it in
 * list_custom_fields' standard_fields, and the form, the list, the export and the import find it
 * without any other edit. The module's own fields (own_ui) stay with the module's screens.
 */
import { describe, expect, it, vi } from "vitest";
import { importDefinition } from "./declared-import-fields.ts";
import { findField } from "./kinds.ts";
import { autoMatch } from "./utils/mapping.ts";
import { customFieldError, customFormOf, customValuesOf } from "@/components/records/custom-fields/custom-field-form.ts";
import { testStandardField } from "@/components/records/custom-fields/test-fields.ts";
import { declaredStandardFields, ruledStandardFields, shownCustomFields } from "@/components/records/custom-fields/custom-fields.ts";
import { customColumns, customFilters } from "@/components/records/custom-fields/list-cells.ts";

vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));

const declared = testStandardField;

// What the database declares for contacts, with the new field last.
const contacts = [
  declared("customer_id", "link", { link_module: "customers", position: 1, filterable: true }),
  declared("first_name", "text", { position: 2, max_length: 100, own_rule: true }),
  declared("title", "text", { position: 3, max_length: 100 }),
  declared("emails", "structured", { position: 5 }),
  declared("nickname", "text", { label_tr: "Lakap", label_en: "Nickname", position: 15, max_length: 40, filterable: true, own_ui: false }),
];
const fields = declaredStandardFields(contacts);
const words = { filled: "Dolu", empty: "Boş", yes: "Evet", no: "Hayır", from: "En az", to: "En çok" };

describe("a standard field declared to be drawn from its declaration", () => {
  it("is drawn where a custom field is, and the module's own fields are not (those its type rules give their rules only)", () => {
    expect(shownCustomFields(fields).map((field) => [field.key, field.standard, field.type])).toEqual([["nickname", true, "text"]]);
    expect(ruledStandardFields(fields).map((field) => field.key)).toEqual(["title"]);
  });

  it("is in the form: its value read from the record, its declared limit checked, sent trimmed under its key", () => {
    const [nickname] = shownCustomFields(fields);
    expect(customFormOf({ id: "1", first_name: "Cem", title: "Müdür", nickname: "Kayacan", cf_x: "k" }, fields)).toEqual({ nickname: "Kayacan", cf_x: "k" });
    expect(customFieldError(nickname, "n".repeat(41))).toBe("too_long");
    expect(customFieldError(nickname, "n".repeat(40))).toBeNull();
    expect(customValuesOf({ nickname: "  Kayacan " }, shownCustomFields(fields))).toEqual({ nickname: "Kayacan" });
  });

  it("is a list column (shown, sortable, its label) with an export cell, and a list filter", () => {
    const context = { language: "tr", timeZone: "Europe/Istanbul", text: { yes: "Evet", no: "Hayır" } } as unknown as Parameters<typeof customColumns>[1];
    const [column] = customColumns<{ id: string; nickname?: string }>(fields, context);
    expect([column.key, column.label, column.sort, column.hidden]).toEqual(["nickname", "Lakap", "nickname", undefined]);
    expect(column.exportValue?.({ id: "1", nickname: "Kayacan" })).toBe("Kayacan");
    expect(customFilters(fields, "en", words as never).map((filter) => filter.key)).toEqual(["nickname"]);
  });

  it("is an import field, matched by its Turkish or English label", () => {
    const kind = importDefinition("contacts", { standard: contacts, custom: [] }, "tr");
    expect(findField(kind, "nickname")?.label).toEqual({ text: "Lakap" });
    const labelOf = (label: unknown) => (typeof label === "string" ? label : (label as { text: string }).text);
    expect(autoMatch(["Ad", "Nickname"], kind, labelOf)).toMatchObject({ Nickname: "nickname" });
  });
});
