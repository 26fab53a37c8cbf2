import { describe, expect, it, vi } from "vitest";
import { exportTable } from "../record-export.ts";
import type { CustomField } from "./custom-fields.ts";
import type { RecordBase } from "../record-api.ts";
import { declaredColumn, declaredFilter, type RecordListSpec } from "../record-config.ts";
import { enValues as en, testField, testStandardField, trValues as tr } from "./test-fields.ts";
import { customColumns, customFilters, withDeclaredFields } from "./list-cells.ts";

// The list cells import the record api, whose client needs a browser: never called here.
vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));

/** A declaration named by its key (its Turkish label too), first in the form unless placed. */
const field = (key: string, type: CustomField["type"], extra: Partial<CustomField> = {}): CustomField =>
  testField(type, { key, label_tr: key, position: 0, ...extra });

const options = [
  { value: "a", label_tr: "Birinci", label_en: "First", color: "teal" },
  { value: "b", label_tr: "İkinci", label_en: null, color: null },
];
const sektor = field("cf_sektor_kodu", "choice", { label_tr: "Sektör kodu", label_en: "Sector code", options, listed: true, filterable: true, position: 1 });
const bayi = field("cf_bayi_no", "number", { label_tr: "Bayi no", filterable: true, position: 2 });
const words = { yes: "Evet", no: "Hayır", filled: "Dolu", empty: "Boş" };

/** The text of a field's list cell holding a value, in a language (the record page's formatter's text). */
function cellText(one: CustomField, value: unknown, context = tr): unknown {
  const [column] = customColumns<{ id: string }>([one], context);
  return column.render?.({ id: "r1", [one.key]: value } as { id: string });
}

describe("custom field cells", () => {
  it("reads each type as the record page does, in the interface's language", () => {
    expect(cellText(field("cf_t", "money", { currency: "USD" }), 1234.5)).toBe("$1.234,50");
    expect(cellText(field("cf_t", "money", { currency: "TRY" }), 1250)).toBe("₺1.250");
    expect(cellText(field("cf_t", "number"), 1234.5)).toBe("1.234,5");
    expect(cellText(field("cf_t", "percent"), 12.5)).toBe("%12,5");
    expect(cellText(field("cf_t", "percent"), 12.345, en)).toBe("12.35%");
    expect(cellText(field("cf_t", "date"), "2026-03-01")).toBe("1 Mar 2026");
    expect(cellText(field("cf_t", "date"), "2026-01-31", en)).toBe("31 Jan 2026");
    expect(cellText(field("cf_t", "boolean"), true)).toBe("Evet");
    expect(cellText(field("cf_t", "boolean"), false, en)).toBe("Hayır");
    expect(cellText(field("cf_t", "phone"), "+902242124933")).toBe("+90 224 212 49 33");
    expect(cellText(field("cf_t", "text"), "")).toBe("—");
    expect(cellText(field("cf_t", "text"), null)).toBe("—");
  });

  it("adds shown fields as columns: listed ones shown, others offered; sortable where the type allows", () => {
    const columns = customColumns([bayi, sektor, field("cf_gizli", "text", { hidden: true }), field("cf_uzun", "long_text", { position: 3 })], tr);
    expect(columns.map((column) => [column.key, column.label, column.sort ?? null, column.hidden ?? false])).toEqual([
      ["cf_sektor_kodu", "Sektör kodu", "cf_sektor_kodu", false],
      ["cf_bayi_no", "Bayi no", "cf_bayi_no", true],
      ["cf_uzun", "cf_uzun", null, true],
    ]);
  });

  it("exports the values as the cells read them, numbers and dates typed", async () => {
    const columns = customColumns<{ id: string; name: string }>(
      [sektor, bayi, field("cf_acilis", "date", { position: 3 }), field("cf_aktif", "boolean", { position: 4 })],
      tr,
    );
    const rows = [{ id: "r1", name: "Acme", cf_sektor_kodu: "a", cf_bayi_no: 42, cf_acilis: "2026-03-01", cf_aktif: true }];
    const table = exportTable([{ key: "name", label: "Ad" }, ...columns], rows);
    expect(table.columns).toEqual([
      { header: "ID", type: "text" },
      { header: "Ad", type: "text" },
      { header: "Sektör kodu", type: "text" },
      { header: "Bayi no", type: "number" },
      { header: "cf_acilis", type: "date" },
      { header: "cf_aktif", type: "text" },
    ]);
    expect(table.rows).toEqual([["r1", "Acme", "Birinci", 42, new Date(2026, 2, 1), "Evet"]]);
  });

  it("exports a link as the linked record's name the rows carry, never the id of one the user may not see", () => {
    const [column] = customColumns<{ id: string }>([field("cf_bayi", "link")], tr);
    const rows = [
      { id: "r1", cf_bayi: "b1", cf_bayi_name: "Bayi Bir" },
      { id: "r2", cf_bayi: "hidden", cf_bayi_name: null },
      { id: "r3", cf_bayi: null, cf_bayi_name: null },
    ];
    const table = exportTable([column], rows);
    expect(table.rows.map((row) => row[1])).toEqual(["Bayi Bir", "Erişiminiz olmayan kayıt", null]);
  });

  it("offers filterable fields as filters of their type's shape", () => {
    const filters = customFilters(
      [
        sektor,
        bayi,
        field("cf_m", "multi_choice", { options, filterable: true, position: 3 }),
        field("cf_aktif", "boolean", { filterable: true, position: 4 }),
        field("cf_not", "text", { filterable: true, position: 5 }),
        field("cf_gun", "datetime", { filterable: true, position: 6 }),
        field("cf_bayi", "link", { filterable: true, position: 7 }),
        field("cf_yok", "text", { position: 8 }),
      ],
      "tr",
      words,
    );
    expect(filters.map((filter) => filter.key)).toEqual(["cf_sektor_kodu", "cf_bayi_no", "cf_m", "cf_aktif", "cf_not", "cf_gun", "cf_bayi"]);
    const [choice, number, multi, yes, text, date, link] = filters;
    expect("options" in choice && choice.options).toEqual([
      { value: "a", label: "Birinci" },
      { value: "b", label: "İkinci" },
    ]);
    expect("options" in choice && choice.query).toBeUndefined();
    expect(number).toEqual({ key: "cf_bayi_no", label: "Bayi no", range: "number" });
    expect("options" in multi && multi.query?.("a")).toEqual(["a"]);
    expect("options" in yes && [yes.query?.("true"), yes.query?.("false")]).toEqual([[true], [false]]);
    expect("options" in text && [text.query?.("filled"), text.query?.("empty")]).toEqual([{ is_null: false }, { is_null: true }]);
    expect(date).toEqual({ key: "cf_gun", label: "cf_gun", range: "date" });
    expect("picker" in link && link.picker.module).toBe("customers");
  });
});

describe("a list from its page's spec and the module's declarations", () => {
  const status = testStandardField("status", "choice", {
    label_tr: "Durum",
    label_en: "Status",
    sortable: true,
    filterable: true,
    options: [
      { value: "lead", label_tr: "Aday", label_en: "Lead", import_names: [] },
      { value: "active", label_tr: "Aktif", label_en: "Active", import_names: [] },
    ],
  });
  const city = testStandardField("city", "text", { label_tr: "İl", label_en: "Province", position: 2 });
  const spec = {
    module: "customers",
    columns: [declaredColumn("city"), declaredColumn("status", { hidden: true }), { key: "owner_name", label: "Sahip" }],
    filters: [declaredFilter("status")],
    statusField: declaredFilter("status"),
  } as unknown as RecordListSpec<RecordBase>;
  const config = withDeclaredFields(spec, { standard: [status, city], custom: [sektor] }, en, words);

  it("labels declared columns and sorts those declared sortable; a column of its own keeps its words; custom columns follow", () => {
    expect(config.columns.map((column) => [column.key, column.label, column.sort, column.hidden])).toEqual([
      ["city", "Province", undefined, undefined],
      ["status", "Status", "status", true],
      ["owner_name", "Sahip", undefined, undefined],
      ["cf_sektor_kodu", "Sector code", "cf_sektor_kodu", undefined],
    ]);
  });

  it("gives a declared choice's filter and the bulk status change its options, labelled in the interface's language", () => {
    const options = [
      { value: "lead", label: "Lead" },
      { value: "active", label: "Active" },
    ];
    expect(config.filters[0]).toEqual({ key: "status", label: "Status", options });
    expect(config.filters.map((filter) => filter.key)).toEqual(["status", "cf_sektor_kodu"]);
    expect(config.statusField).toEqual({ key: "status", label: "Status", options });
  });
});
