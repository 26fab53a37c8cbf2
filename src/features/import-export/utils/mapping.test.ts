import { describe, expect, it, vi } from "vitest";
import { en } from "@/i18n/en.ts";
import { tr } from "@/i18n/tr.ts";
import { declaredKind } from "../testing/declared-kinds.ts";
import { applySavedMapping, autoMatch, defaultSettings, mappingProblems, usableMatchKeys, type LabelOf } from "./mapping.ts";

// The declared kinds come from the declarations module, which also holds their query.
vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));


const labelsOf =
  (catalogue: object): LabelOf =>
  (label) =>
    typeof label === "string"
      ? (label.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalogue) as string)
      : label.text;
const turkish = labelsOf(tr);
const english = labelsOf(en);

const customers = declaredKind("customers");
const contacts = declaredKind("contacts");

describe("autoMatch", () => {
  it("matches Turkish headers however they are written, and leaves unknown columns out", () => {
    const headers = ["Firma Adı", "VERGİ NO", "Vergi Dairesi", "E-Posta", "İL", "ilçe", "Notlar", "Müşteri Temsilcisi", "Cari Kodu", "Bilinmeyen"];
    expect(autoMatch(headers, customers, turkish)).toEqual({
      "Firma Adı": "name",
      "VERGİ NO": "tax_number",
      "Vergi Dairesi": "tax_office",
      "E-Posta": "email",
      İL: "city",
      ilçe: "district",
      Notlar: "description",
      "Müşteri Temsilcisi": "owner",
      "Cari Kodu": "external_id",
    });
  });

  it("matches English headers and the labels of the interface's language", () => {
    expect(autoMatch(["Company name", "Tax number", "Email address", "City", "Tags", "Owner"], customers, english)).toEqual({
      "Company name": "name",
      "Tax number": "tax_number",
      "Email address": "email",
      City: "city",
      Tags: "tags",
      Owner: "owner",
    });
    // The field's own label, as the form shows it.
    expect(autoMatch(["Unvan / Ad Soyad", "VKN / TCKN"], customers, turkish)).toEqual({ "Unvan / Ad Soyad": "name", "VKN / TCKN": "tax_number" });
  });

  it("matches a list export's headers, leaving the columns nobody imports", () => {
    const exported = ["ID", "Unvan / Ad Soyad", "Tür", "VKN / TCKN", "Durum", "İl", "Telefon", "E-posta", "Sahip", "Eklenme tarihi", "Güncellenme"];
    expect(autoMatch(exported, customers, turkish)).toEqual({
      ID: "id",
      "Unvan / Ad Soyad": "name",
      Tür: "kind",
      "VKN / TCKN": "tax_number",
      Durum: "status",
      İl: "city",
      Telefon: "phone",
      "E-posta": "email",
      Sahip: "owner",
    });
  });

  it("gives a field to its first column only", () => {
    expect(autoMatch(["Firma", "Unvan", "Telefon", "Tel"], customers, turkish)).toEqual({ Firma: "name", Telefon: "phone" });
  });

  it("does not map a full name beside a first or last name", () => {
    expect(autoMatch(["Ad", "Soyad", "Ad Soyad", "E-posta"], contacts, turkish)).toEqual({ Ad: "first_name", Soyad: "last_name", "E-posta": "email" });
    expect(autoMatch(["Ad Soyad", "Ad", "Cep"], contacts, turkish)).toEqual({ "Ad Soyad": "full_name", Cep: "mobile_phone" });
  });
});

describe("applySavedMapping", () => {
  it("applies a saved mapping by exact or folded header, keeping only the kind's fields, each once", () => {
    const saved = { "VERGİ NO": "tax_number", Firma: "name", Eski: "retired_field", Şehir: "city", Kent: "city" };
    expect(applySavedMapping(["Firma", "Vergi No", "Şehir", "Kent", "Başka"], saved, customers)).toEqual({
      Firma: "name",
      "Vergi No": "tax_number",
      Şehir: "city",
    });
  });
});

describe("mappingProblems", () => {
  it("accepts a mapping with the required fields, each field once", () => {
    expect(mappingProblems(customers, { Firma: "name", VKN: "tax_number" })).toEqual([]);
  });

  it("says when nothing is mapped", () => {
    expect(mappingProblems(customers, {})).toEqual([{ type: "nothing_mapped" }]);
  });

  it("names the required fields not mapped", () => {
    expect(mappingProblems(customers, { VKN: "tax_number" })).toEqual([{ type: "missing", fields: ["name"] }]);
    expect(mappingProblems(contacts, { Mail: "email" })).toEqual([{ type: "missing", fields: ["first_name", "last_name", "full_name"] }]);
    // A contact's name may come as a first name, a last name or a full name.
    expect(mappingProblems(contacts, { Soyad: "last_name" })).toEqual([]);
    expect(mappingProblems(contacts, { "Ad Soyad": "full_name" })).toEqual([]);
  });

  it("refuses a field mapped twice and fields that write the same values", () => {
    expect(mappingProblems(customers, { Firma: "name", Unvan: "name" })).toEqual([{ type: "duplicate", field: "name", headers: ["Firma", "Unvan"] }]);
    expect(mappingProblems(contacts, { "Ad Soyad": "full_name", Ad: "first_name" })).toEqual([{ type: "conflict", field: "first_name", other: "full_name" }]);
  });
});

describe("match keys and the preview's first settings", () => {
  it("offers the match keys whose columns are mapped", () => {
    expect(usableMatchKeys(customers, { Firma: "name", VKN: "tax_number" })).toEqual(["tax_number", "name"]);
    expect(usableMatchKeys(contacts, { Ad: "first_name" })).toEqual(["name"]);
    expect(usableMatchKeys(declaredKind("deals"), { Açıklama: "description" })).toEqual([]);
  });

  it("updates by id a file that has ids, and otherwise creates matching on the first key the file has", () => {
    expect(defaultSettings(customers, { ID: "id", Firma: "name" })).toEqual({ mode: "update", matchKey: "id" });
    expect(defaultSettings(customers, { Firma: "name", VKN: "tax_number" })).toEqual({ mode: "create", matchKey: "tax_number" });
    expect(defaultSettings(declaredKind("tasks"), { Not: "description" })).toEqual({ mode: "create", matchKey: null });
  });
});
