import { describe, expect, it, vi } from "vitest";
import type { CustomField } from "@/components/records/custom-fields/custom-fields.ts";
import { testField } from "@/components/records/custom-fields/test-fields.ts";
import { withCustomImportFields } from "./custom-import-fields.ts";
import { findField, importKind, labelText, type ImportField } from "./kinds.ts";
import { applySavedMapping, autoMatch, type LabelOf } from "./utils/mapping.ts";
import { convertCell, prepareRows, type ConvertContext } from "./utils/prepare-rows.ts";

vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));

/** A declaration named by its key (its Turkish label too), first in the form unless placed. */
const field = (key: string, type: CustomField["type"], extra: Partial<CustomField> = {}): CustomField =>
  testField(type, { key, label_tr: key, position: 0, listed: true, ...extra });

const options = [
  { value: "a", label_tr: "Ağır sanayi", label_en: "Heavy industry", color: null },
  { value: "b", label_tr: "Bilişim", label_en: null, color: null },
  { value: "c", label_tr: "Çiftçilik", label_en: null, color: null },
];
const fields = [
  field("cf_sektor_kodu", "choice", { label_tr: "Sektör kodu", label_en: "Sector code", options, position: 1 }),
  field("cf_bayi_no", "number", { label_tr: "Bayi no", position: 2 }),
  field("cf_alanlar", "multi_choice", { label_tr: "Alanlar", options, position: 3 }),
  field("cf_aktif", "boolean", { label_tr: "Aktif bayi", position: 4 }),
  field("cf_acilis", "date", { label_tr: "Açılış", position: 5 }),
  field("cf_ciro", "money", { label_tr: "Ciro", position: 6 }),
  field("cf_bayi", "link", { label_tr: "Bağlı bayi", position: 7 }),
  field("cf_eski", "text", { label_tr: "Eski kod", hidden: true, position: 8 }),
];
const customers = withCustomImportFields(importKind("customers"), fields, "tr");
// A custom label is its own text; catalogue keys are never reached by the custom fields under test.
const labelOf: LabelOf = (label) => (typeof label === "string" ? label : label.text);
const convert: ConvertContext = { timeZone: "Europe/Istanbul", optionLabel: (option) => (typeof option.label === "string" ? option.label : option.label.text) };
const custom = (key: string): ImportField => {
  const found = findField(customers, key);
  if (!found) throw new Error(`no ${key}`);
  return found;
};
const cell = (key: string, raw: string) => convertCell(custom(key), raw, convert);

describe("custom fields as import targets", () => {
  it("are fields of their module's kind only, shown ones except links", () => {
    expect(customers.fields.slice(-6).map((target) => [target.key, target.type])).toEqual([
      ["cf_sektor_kodu", "enum"],
      ["cf_bayi_no", "number"],
      ["cf_alanlar", "options"],
      ["cf_aktif", "boolean"],
      ["cf_acilis", "date"],
      ["cf_ciro", "money"],
    ]);
    expect(withCustomImportFields(importKind("products"), fields, "tr")).toBe(importKind("products"));
    expect(labelText(custom("cf_sektor_kodu").label, ((key: string) => key) as never)).toBe("Sektör kodu");
    expect(labelText(withCustomImportFields(importKind("customers"), fields, "en").fields.at(-6)!.label, (() => "") as never)).toBe("Sector code");
  });

  it("match headers equal to the Turkish or English label, whatever the case, spaces and underscores", () => {
    const headers = ["Ad", "Sektör Kodu", "BAYİ_NO", "Sector code", "alanlar", "Eski kod"];
    expect(autoMatch(headers, customers, labelOf)).toEqual({ Ad: "name", "Sektör Kodu": "cf_sektor_kodu", BAYİ_NO: "cf_bayi_no", alanlar: "cf_alanlar" });
    expect(autoMatch(["SECTOR CODE", "Bayi No"], customers, labelOf)).toEqual({ "SECTOR CODE": "cf_sektor_kodu", "Bayi No": "cf_bayi_no" });
    // A standard field keeps its own header names: a custom field labelled like one is matched by hand.
    const clash = withCustomImportFields(importKind("customers"), [field("cf_telefon", "text", { label_tr: "Telefon" })], "tr");
    expect(autoMatch(["Telefon"], clash, labelOf)).toEqual({ Telefon: "phone" });
  });

  it("keep a saved mapping's custom column only while the field exists", () => {
    const saved = { "Sektör Kodu": "cf_sektor_kodu", "Silinen": "cf_silinen" };
    expect(applySavedMapping(["Sektör Kodu", "Silinen"], saved, customers)).toEqual({ "Sektör Kodu": "cf_sektor_kodu" });
  });

  it("convert cells to what the database takes", () => {
    expect(cell("cf_bayi_no", "1.234,5")).toEqual({ value: 1234.5 });
    expect(cell("cf_bayi_no", "1234.5")).toEqual({ value: 1234.5 });
    expect(cell("cf_bayi_no", "on iki")).toEqual({ error: "invalid_number" });
    expect(cell("cf_ciro", "₺1.250,00")).toEqual({ value: 1250 });
    for (const [raw, value] of [["evet", true], ["Hayır", false], ["yes", true], ["NO", false], ["true", true], ["0", false], ["1", true]] as const) {
      expect(cell("cf_aktif", raw), raw).toEqual({ value });
    }
    expect(cell("cf_aktif", "belki")).toEqual({ error: "invalid_boolean" });
    expect(cell("cf_sektor_kodu", "A")).toEqual({ value: "a" });
    expect(cell("cf_sektor_kodu", "AĞIR SANAYİ")).toEqual({ value: "a" });
    expect(cell("cf_sektor_kodu", "heavy industry")).toEqual({ value: "a" });
    expect(cell("cf_sektor_kodu", "bilişim")).toEqual({ value: "b" });
    expect(cell("cf_sektor_kodu", "Z")).toEqual({ error: "invalid_option" });
    expect(cell("cf_alanlar", "a; Bilişim, çiftçilik;a")).toEqual({ value: ["a", "b", "c"] });
    expect(cell("cf_alanlar", "a, yok")).toEqual({ error: "invalid_option" });
    expect(cell("cf_acilis", "31.12.2026")).toEqual({ value: "2026-12-31" });
    expect(cell("cf_acilis", "2026-12-31")).toEqual({ value: "2026-12-31" });
    expect(cell("cf_acilis", "31.02.2026")).toEqual({ error: "invalid_date" });
  });

  it("send the converted values under the fields' keys", () => {
    const mapping = autoMatch(["Ad", "Sektör Kodu", "Bayi No", "Alanlar"], customers, labelOf);
    const sheet = { headers: ["Ad", "Sektör Kodu", "Bayi No", "Alanlar"], rows: [["Acme", "B", "1.234", "a;c"]], sha256: "x" };
    expect(prepareRows(sheet as never, customers, mapping, convert)[0].values).toEqual({
      name: "Acme",
      cf_sektor_kodu: "b",
      cf_bayi_no: 1234,
      cf_alanlar: ["a", "c"],
    });
  });
});
