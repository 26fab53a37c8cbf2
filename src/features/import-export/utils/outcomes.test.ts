import { describe, expect, it, vi } from "vitest";
import { declaredKind } from "../testing/declared-kinds.ts";
import {
  columnOfError,
  countOutcomes,
  describeOutcome,
  failedFirst,
  failedRowsFileName,
  failedRowsTable,
  outcomeOf,
  type OutcomeWords,
  type RowOutcome,
} from "./outcomes.ts";
import type { PreparedRow } from "./prepare-rows.ts";

// The declared kinds come from the declarations module, which also holds their query.
vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));


const clean: PreparedRow = { row: 2, index: 0, values: { name: "A" }, errors: {} };

describe("outcomeOf", () => {
  it("puts the browser's findings first: such a row never reached the server", () => {
    expect(outcomeOf({ ...clean, duplicateOf: 7 }, { row: 2, status: "created" })).toEqual({
      status: "failed",
      reason: "duplicate_in_file",
      duplicateOf: 7,
      errors: {},
    });
    expect(outcomeOf({ ...clean, errors: { amount: "invalid_number" } }, undefined)).toEqual({ status: "failed", errors: { amount: "invalid_number" } });
  });

  it("takes the server's answer otherwise, and has none before it", () => {
    expect(outcomeOf(clean, { row: 2, status: "failed", errors: { tax_number: "invalid_vkn" } })).toEqual({
      status: "failed",
      reason: undefined,
      errors: { tax_number: "invalid_vkn" },
    });
    expect(outcomeOf(clean, { row: 2, status: "skipped", reason: "exists", errors: null })).toEqual({ status: "skipped", reason: "exists", errors: {} });
    expect(outcomeOf(clean, undefined)).toBeUndefined();
  });
});

describe("counts and order", () => {
  const outcomes: (RowOutcome | undefined)[] = [
    { status: "created", errors: {} },
    { status: "failed", errors: { name: "required" } },
    undefined,
    { status: "unchanged", errors: {} },
    { status: "failed", reason: "not_found", errors: {} },
    { status: "updated", errors: {} },
  ];

  it("counts each status", () => {
    expect(countOutcomes(outcomes)).toEqual({ created: 1, updated: 1, unchanged: 1, skipped: 0, failed: 2 });
  });

  it("lists the failed rows first, each group in file order", () => {
    expect(failedFirst(outcomes)).toEqual([1, 4, 0, 2, 3, 5]);
  });
});

describe("columnOfError", () => {
  it("finds the column of a field problem by the value it wrote", () => {
    const columnOf = columnOfError(declaredKind("contacts"), { "Ad Soyad": "full_name", Sorumlu: "owner", Mail: "email", Firma: "customer" });
    expect(columnOf("first_name")).toBe("Ad Soyad");
    expect(columnOf("last_name")).toBe("Ad Soyad");
    expect(columnOf("owner")).toBe("Sorumlu");
    expect(columnOf("owner_id")).toBe("Sorumlu");
    expect(columnOf("emails")).toBe("Mail");
    expect(columnOf("customer_id")).toBe("Firma");
    expect(columnOf("kvkk_consent_channel")).toBeUndefined();
  });
});

describe("describeOutcome", () => {
  const words: OutcomeWords = {
    reason: (reason, row) => `<${reason}${row ? ` ${row}` : ""}>`,
    cellError: (code) => `<${code}>`,
    fieldName: (key) => `[${key}]`,
  };
  const columnOf = (key: string) => ({ email: "E-posta", tax_number: "VKN" })[key];

  it("puts a row's reason and each field problem under its column in words", () => {
    expect(describeOutcome({ status: "failed", errors: { email: "invalid_email", tax_number: "invalid_vkn" } }, columnOf, words)).toBe(
      "E-posta: <invalid_email>; VKN: <invalid_vkn>",
    );
    expect(describeOutcome({ status: "failed", reason: "duplicate_in_file", duplicateOf: 4, errors: {} }, columnOf, words)).toBe("<duplicate_in_file 4>");
    expect(describeOutcome({ status: "failed", reason: "not_found", errors: { currency: "required" } }, columnOf, words)).toBe(
      "<not_found>; [currency]: <required>",
    );
  });
});

describe("the error file", () => {
  const sheet = {
    headers: ["Firma", "VKN", "Hata", "Şehir"],
    rows: [
      ["A", "1", "eski hata", "İzmir"],
      ["B", "2", "", "Ankara"],
      ["C", "3"],
    ],
  };

  it("has the original columns, the rows in file order, and the reasons last (an old error column replaced)", () => {
    const table = failedRowsTable(
      sheet,
      [
        { index: 2, reasons: "VKN: geçersiz" },
        { index: 0, reasons: "Firma: zorunlu" },
      ],
      "Hata",
    );
    expect(table.columns).toEqual([
      { header: "Firma", type: "text" },
      { header: "VKN", type: "text" },
      { header: "Şehir", type: "text" },
      { header: "Hata", type: "text" },
    ]);
    expect(table.rows).toEqual([
      ["A", "1", "İzmir", "Firma: zorunlu"],
      ["C", "3", "", "VKN: geçersiz"],
    ]);
  });

  it("keeps every column when the file has no error column", () => {
    expect(failedRowsTable(sheet, [{ index: 1, reasons: "x" }], "Error").rows).toEqual([["B", "2", "", "Ankara", "x"]]);
  });

  it("is named after the original file", () => {
    expect(failedRowsFileName("Müşteriler 2026.csv", "hatalar", "csv")).toBe("Müşteriler 2026-hatalar.csv");
    expect(failedRowsFileName("liste.xlsx", "errors", "xlsx")).toBe("liste-errors.xlsx");
    expect(failedRowsFileName("liste", "hatalar", "csv")).toBe("liste-hatalar.csv");
  });
});
