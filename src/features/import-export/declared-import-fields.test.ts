import { describe, expect, it, vi } from "vitest";
import type { CustomField } from "@/components/records/custom-fields/custom-fields.ts";
import { testField } from "@/components/records/custom-fields/test-fields.ts";
import { importDefinition } from "./declared-import-fields.ts";
import { findField, importKind, labelText, type ImportField } from "./kinds.ts";
import { declaredKind, declaredStandardFields } from "./testing/declared-kinds.ts";
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
const customers = declaredKind("customers", fields);
// A custom label is its own text; catalogue keys are never reached by the custom fields under test.
const labelOf: LabelOf = (label) => (typeof label === "string" ? label : label.text);
const convert: ConvertContext = { timeZone: "Europe/Istanbul", optionLabel: (option) => (typeof option.label === "string" ? option.label : option.label.text) };
const custom = (key: string): ImportField => {
  const found = findField(customers, key);
  if (!found) throw new Error(`no ${key}`);
  return found;
};
const cell = (key: string, raw: string) => convertCell(custom(key), raw, convert);

describe("a module's standard fields as import targets", () => {
  it("are the writable declared ones in their order, after the record id and before the owner; links as references, structured ones left out", () => {
    const contacts = declaredKind("contacts");
    expect(contacts.fields.map((target) => [target.key, target.type])).toEqual([
      ["id", "text"],
      ["customer", "reference"],
      ["first_name", "text"],
      ["last_name", "text"],
      ["title", "text"],
      ["tags", "tags"],
      ["description", "text"],
      ["kvkk_consent", "boolean"],
      ["kvkk_consent_channel", "enum"],
      ["kvkk_consent_at", "datetime"],
      ["kvkk_consent_source", "text"],
      ["external_id", "text"],
      ["full_name", "text"],
      ["email", "text"],
      ["phone", "text"],
      ["mobile_phone", "text"],
      ["owner", "reference"],
    ]);
    // Read-only fields (a deal's closing time, a task's completion) are no import target.
    expect(findField(declaredKind("deals"), "closed_at")).toBeUndefined();
    expect(findField(declaredKind("tasks"), "completed_at")).toBeUndefined();
    expect(findField(declaredKind("tasks"), "deal")?.type).toBe("reference");
  });

  it("take their labels in the interface's language and match headers by either label or a declared import name", () => {
    expect(findField(declaredKind("customers", [], "en"), "tax_office")?.label).toEqual({ text: "Tax office" });
    expect(autoMatch(["Vergi No", "VD", "Cari Kodu", "Müşteri Temsilcisi", "Province"], declaredKind("customers"), labelOf)).toEqual({
      "Vergi No": "tax_number",
      VD: "tax_office",
      "Cari Kodu": "external_id",
      "Müşteri Temsilcisi": "owner",
      Province: "city",
    });
  });

  it("read a choice's cell by its value, either label or an option's import name; task types outside the built-in ones go as written", () => {
    const kind = findField(declaredKind("customers"), "kind")!;
    for (const [raw, value] of [["company", "company"], ["ŞAHIS", "person"], ["Tüzel Kişi", "company"], ["Individual", "person"]] as const) {
      expect(convertCell(kind, raw, convert), raw).toEqual({ value });
    }
    expect(convertCell(kind, "Dernek", convert)).toEqual({ error: "invalid_option" });
    const tasks = declaredKind("tasks");
    const type = findField(tasks, "type")!;
    expect(convertCell(type, "Görüşme", convert)).toEqual({ value: "meeting" });
    expect(tasks.openOptions).toEqual(["type"]);
    expect(convertCell(findField(tasks, "priority")!, "Kritik", convert)).toEqual({ value: "urgent" });
  });

  it("leave a kind of no module of its own (products) as declared in kinds.ts, and a module's kind without its declarations unchanged", () => {
    expect(importDefinition("products", { standard: declaredStandardFields.customers, custom: fields }, "tr")).toBe(importKind("products"));
    expect(importDefinition("customers", undefined, "tr")).toBe(importKind("customers"));
  });
});

describe("custom fields as import targets", () => {
  it("are fields of their module's kind only, shown ones except links", () => {
    expect(customers.fields.filter((target) => target.key.startsWith("cf_")).map((target) => [target.key, target.type])).toEqual([
      ["cf_sektor_kodu", "enum"],
      ["cf_bayi_no", "number"],
      ["cf_alanlar", "options"],
      ["cf_aktif", "boolean"],
      ["cf_acilis", "date"],
      ["cf_ciro", "money"],
    ]);
    expect(customers.fields.at(-1)?.key).toBe("owner");
    expect(labelText(custom("cf_sektor_kodu").label, ((key: string) => key) as never)).toBe("Sektör kodu");
    expect(labelText(findField(declaredKind("customers", fields, "en"), "cf_sektor_kodu")!.label, (() => "") as never)).toBe("Sector code");
  });

  it("match headers equal to the Turkish or English label, whatever the case, spaces and underscores", () => {
    const headers = ["Ad", "Sektör Kodu", "BAYİ_NO", "Sector code", "alanlar", "Eski kod"];
    expect(autoMatch(headers, customers, labelOf)).toEqual({ Ad: "name", "Sektör Kodu": "cf_sektor_kodu", BAYİ_NO: "cf_bayi_no", alanlar: "cf_alanlar" });
    expect(autoMatch(["SECTOR CODE", "Bayi No"], customers, labelOf)).toEqual({ "SECTOR CODE": "cf_sektor_kodu", "Bayi No": "cf_bayi_no" });
    // A standard field keeps its own header names: a custom field labelled like one is matched by hand.
    const clash = declaredKind("customers", [field("cf_telefon", "text", { label_tr: "Telefon" })]);
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
