import { describe, expect, it, vi } from "vitest";
import { findField, type ImportField, type ImportKind } from "../kinds.ts";
import { declaredKind } from "../testing/declared-kinds.ts";
import {
  cellText,
  convertCell,
  foldName,
  hasLocalProblem,
  markDuplicates,
  matchValue,
  prepareRows,
  splitFullName,
  splitTags,
  type ConvertContext,
  type PreparedRow,
} from "./prepare-rows.ts";

// The declared kinds come from the declarations module, which also holds their query.
vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));


const convert: ConvertContext = { timeZone: "Europe/Istanbul", optionLabel: (option) => `label:${option.key}` };

function field(kind: ImportKind, key: string): ImportField {
  const found = findField(declaredKind(kind), key);
  if (!found) throw new Error(`${kind} has no ${key}`);
  return found;
}

const cell = (kind: ImportKind, key: string, raw: string | undefined) => convertCell(field(kind, key), raw, convert);

describe("convertCell", () => {
  it("sends nothing for an empty cell (an import never clears a field)", () => {
    expect(cell("customers", "name", "")).toBeNull();
    expect(cell("customers", "name", "   ")).toBeNull();
    expect(cell("customers", "name", undefined)).toBeNull();
    expect(cell("deals", "amount", " ")).toBeNull();
    expect(cell("customers", "tags", " , ; ")).toBeNull();
  });

  it("reads text and references as written, trimmed, without a CSV export's inert-formula apostrophe", () => {
    expect(cell("customers", "name", "  Demo Ticaret A.Ş. ")).toEqual({ value: "Demo Ticaret A.Ş." });
    expect(cell("customers", "phone", "'+90 532 111 22 33")).toEqual({ value: "+90 532 111 22 33" });
    expect(cell("customers", "description", "'=HYPERLINK(1)")).toEqual({ value: "=HYPERLINK(1)" });
    expect(cell("customers", "description", "'alıntı")).toEqual({ value: "'alıntı" });
    expect(cell("deals", "customer", " 1234567890 ")).toEqual({ value: "1234567890" });
    expect(cellText("'-12")).toBe("-12");
    expect(cellText("' =HYPERLINK(1)")).toBe("=HYPERLINK(1)");
    expect(cellText("'\u00A0＝1+1")).toBe("＝1+1");
    expect(cellText("'Ankara")).toBe("'Ankara");
  });

  it("reads numbers and amounts as Turkish users write them", () => {
    expect(cell("deals", "amount", "1.234,56")).toEqual({ value: 1234.56 });
    expect(cell("deals", "amount", "₺1.250,00")).toEqual({ value: 1250 });
    expect(cell("deals", "amount", "1.250 TL")).toEqual({ value: 1250 });
    expect(cell("products", "unit_price", "EUR 12,5")).toEqual({ value: 12.5 });
    expect(cell("products", "vat_rate", "%18")).toEqual({ value: 18 });
    expect(cell("deals", "probability", "40")).toEqual({ value: 40 });
    expect(cell("deals", "amount", "bin lira")).toEqual({ error: "invalid_number" });
    // Only amounts drop a currency mark.
    expect(cell("deals", "probability", "40 TL")).toEqual({ error: "invalid_number" });
  });

  it("reads dates, also with a midnight time, and refuses impossible ones", () => {
    expect(cell("deals", "expected_close_date", "31.12.2026")).toEqual({ value: "2026-12-31" });
    expect(cell("deals", "expected_close_date", "31/12/2026")).toEqual({ value: "2026-12-31" });
    expect(cell("deals", "expected_close_date", "2026-12-31 00:00:00")).toEqual({ value: "2026-12-31" });
    expect(cell("deals", "expected_close_date", "46387")).toEqual({ value: "2026-12-31" });
    expect(cell("deals", "expected_close_date", "31.02.2026")).toEqual({ error: "invalid_date" });
    expect(cell("deals", "expected_close_date", "yarın")).toEqual({ error: "invalid_date" });
  });

  it("reads a date and time on the organization's clock, or with the offset it carries", () => {
    expect(cell("tasks", "due_at", "31.12.2026 14:30")).toEqual({ value: "2026-12-31T11:30:00.000Z" });
    expect(cell("tasks", "due_at", "31.12.2026 14.30")).toEqual({ value: "2026-12-31T11:30:00.000Z" });
    expect(cell("tasks", "due_at", "2026-12-31T14:30:00")).toEqual({ value: "2026-12-31T11:30:00.000Z" });
    expect(cell("tasks", "due_at", "31.12.2026")).toEqual({ value: "2026-12-30T21:00:00.000Z" });
    expect(cell("tasks", "due_at", "2026-12-31T14:30:00Z")).toEqual({ value: "2026-12-31T14:30:00.000Z" });
    expect(cell("tasks", "due_at", "2026-12-31 14:30:00+01:00")).toEqual({ value: "2026-12-31T13:30:00.000Z" });
    // An Excel serial: the fraction is the time of day (0.5 = noon).
    expect(cell("tasks", "remind_at", "46387.5")).toEqual({ value: "2026-12-31T09:00:00.000Z" });
    expect(cell("tasks", "due_at", "31.12.2026 25:00")).toEqual({ error: "invalid_datetime" });
    expect(cell("tasks", "due_at", "bugün")).toEqual({ error: "invalid_datetime" });
  });

  it("reads yes and no, with a field's own words", () => {
    expect(cell("contacts", "kvkk_consent", "Evet")).toEqual({ value: true });
    expect(cell("contacts", "kvkk_consent", "Yok")).toEqual({ value: false });
    expect(cell("products", "active", "Pasif")).toEqual({ value: false });
    expect(cell("products", "active", "Etkin")).toEqual({ value: true });
    expect(cell("contacts", "kvkk_consent", "belki")).toEqual({ error: "invalid_boolean" });
    expect(cell("contacts", "kvkk_consent", "Pasif")).toEqual({ error: "invalid_boolean" });
  });

  it("reads an option by its key, its label or an alias, and refuses others unless the list is open", () => {
    expect(cell("customers", "kind", "person")).toEqual({ value: "person" });
    expect(cell("customers", "kind", "label:person")).toEqual({ value: "person" });
    expect(cell("customers", "kind", "ŞAHIS")).toEqual({ value: "person" });
    expect(cell("customers", "status", "Potansiyel")).toEqual({ value: "lead" });
    expect(cell("tasks", "status", "devam ediyor")).toEqual({ value: "in_progress" });
    expect(cell("customers", "kind", "Dernek")).toEqual({ error: "invalid_option" });
    // Task types: the organization adds its own, checked by the server.
    expect(cell("tasks", "type", "Toplantı")).toEqual({ value: "meeting" });
    expect(cell("tasks", "type", "Fuar")).toEqual({ value: "Fuar" });
  });

  it("splits tags on commas and semicolons, each once", () => {
    expect(cell("customers", "tags", "VIP, İstanbul; toptan;VIP")).toEqual({ value: ["VIP", "İstanbul", "toptan"] });
    expect(splitTags("a;;b,")).toEqual(["a", "b"]);
  });
});

describe("rows", () => {
  const sheet = {
    headers: ["Ad Soyad", "E-posta", "Müşteri", "KVKK"],
    rows: [
      ["Ayşe Nur Yılmaz", "AYSE@ornek.com", "Demo A.Ş.", "Evet"],
      ["Mehmet", "", "", "belki"],
      ["", "", "", ""],
    ],
  };
  const mapping = { "Ad Soyad": "full_name", "E-posta": "email", Müşteri: "customer", KVKK: "kvkk_consent" };

  it("reads each mapped cell, a full name as first and last name, and keeps cell errors by field", () => {
    const rows = prepareRows({ ...sheet, encoding: "utf-8", sha256: "x" }, declaredKind("contacts"), mapping, convert);
    expect(rows).toEqual([
      {
        row: 2,
        index: 0,
        values: { first_name: "Ayşe Nur", last_name: "Yılmaz", email: "AYSE@ornek.com", customer: "Demo A.Ş.", kvkk_consent: true },
        errors: {},
      },
      { row: 3, index: 1, values: { first_name: "Mehmet" }, errors: { kvkk_consent: "invalid_boolean" } },
      { row: 4, index: 2, values: {}, errors: {} },
    ]);
    expect(rows.map(hasLocalProblem)).toEqual([false, true, false]);
  });

  it("splits a full name on its last word", () => {
    expect(splitFullName("  Ali   Veli Can ")).toEqual({ first_name: "Ali Veli", last_name: "Can" });
    expect(splitFullName("Cem")).toEqual({ first_name: "Cem" });
  });
});

describe("duplicates in the file", () => {
  const row = (number: number, values: PreparedRow["values"]): PreparedRow => ({ row: number, index: number - 2, values, errors: {} });
  const customers = declaredKind("customers");

  it("marks the rows repeating an earlier row's match key value, normalised as the server compares", () => {
    const rows = [
      row(2, { name: "A", tax_number: "1234567890" }),
      row(3, { name: "B", tax_number: "123 456 7890" }),
      row(4, { name: "C", tax_number: "9876543210" }),
      row(5, { name: "D" }),
      row(6, { name: "E" }),
      row(7, { name: "F", tax_number: "1234567890" }),
    ];
    const marked = markDuplicates(rows, customers, "tax_number");
    expect(marked.map((entry) => entry.duplicateOf)).toEqual([undefined, 2, undefined, undefined, undefined, 2]);
    expect(marked.map(hasLocalProblem)).toEqual([false, true, false, false, false, true]);
    // The rows themselves are not changed.
    expect(rows.every((entry) => entry.duplicateOf === undefined)).toBe(true);
  });

  it("compares emails without case, names Turkish-folded, and matches contacts on first and last name", () => {
    expect(markDuplicates([row(2, { email: "A@x.com" }), row(3, { email: " a@X.com" })], customers, "email")[1].duplicateOf).toBe(2);
    expect(markDuplicates([row(2, { name: "IŞIK Ltd" }), row(3, { name: " ışık ltd " })], customers, "name")[1].duplicateOf).toBe(2);
    // Inner spaces count, as on the server.
    expect(markDuplicates([row(2, { name: "IŞIK Ltd" }), row(3, { name: "ışık  ltd" })], customers, "name")[1].duplicateOf).toBeUndefined();
    const contacts = declaredKind("contacts");
    const marked = markDuplicates(
      [row(2, { first_name: "Ayşe", last_name: "Kaya" }), row(3, { first_name: "AYŞE", last_name: "KAYA" }), row(4, { first_name: "Ayşe" })],
      contacts,
      "name",
    );
    expect(marked.map((entry) => entry.duplicateOf)).toEqual([undefined, 2, undefined]);
  });

  it("marks nothing without a match key", () => {
    const rows = [row(2, { name: "A" }), row(3, { name: "A" })];
    expect(markDuplicates(rows, customers, null)).toBe(rows);
  });

  it("folds names as private.fold_search does", () => {
    expect(foldName("  İSTANBUL Çiçek  ")).toBe("istanbul cicek");
    expect(matchValue(customers, "external_id", { external_id: " C-01 " })).toBe("C-01");
    expect(matchValue(customers, "id", {})).toBeNull();
  });
});
