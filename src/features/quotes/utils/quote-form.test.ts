import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import type { Product } from "../api/quotes.ts";
import {
  addDays,
  decimalInputText,
  emptyLine,
  emptyQuoteForm,
  headerErrors,
  lineErrors,
  lineErrorsOnly,
  linesReducer,
  normalizeDecimal,
  previewBlocked,
  quoteErrorsOf,
  quoteHeaderFields,
  quoteLinesChanged,
  quotePayload,
  vatRateOptions,
} from "./quote-form.ts";

const defaults = { today: "2026-11-23", validityDays: 30, currency: "TRY", vatRate: "20" };

describe("normalizeDecimal", () => {
  it("reads Turkish writing: dots group thousands, a comma marks decimals", () => {
    expect(normalizeDecimal("1.234,50", "tr")).toBe("1234.50");
    expect(normalizeDecimal("1.250", "tr")).toBe("1250");
    expect(normalizeDecimal("12,5", "tr")).toBe("12.5");
    expect(normalizeDecimal("12.5", "tr")).toBe("12.5");
    expect(normalizeDecimal(" 1 000 ", "tr")).toBe("1000");
  });
  it("reads English writing", () => {
    expect(normalizeDecimal("1,234.50", "en")).toBe("1234.50");
    expect(normalizeDecimal("0.075", "en")).toBe("0.075");
  });
  it("keeps every digit (no float on the way)", () => {
    expect(normalizeDecimal("12345678901234567,891", "tr")).toBe("12345678901234567.891");
  });
  it("answers empty for nothing and null for what is not a number", () => {
    expect(normalizeDecimal("  ", "tr")).toBe("");
    expect(normalizeDecimal("abc", "tr")).toBeNull();
    expect(normalizeDecimal("1,2,3", "tr")).toBeNull();
    expect(normalizeDecimal("1.23.4", "tr")).toBeNull();
  });
  it("round-trips the database's text", () => {
    expect(decimalInputText("1234.50", "tr")).toBe("1234,50");
    expect(normalizeDecimal(decimalInputText("1234.50", "tr"), "tr")).toBe("1234.50");
    expect(decimalInputText("1234.50", "en")).toBe("1234.50");
    expect(decimalInputText("2500.0000", "tr")).toBe("2500,00");
    expect(decimalInputText("12.3450", "en")).toBe("12.345");
    expect(decimalInputText("3", "tr")).toBe("3");
  });
});

describe("a new quote", () => {
  it("is valid for the organization's validity days, in its currency, with one line at the default KDV", () => {
    const form = emptyQuoteForm({ ...defaults, customerId: "c1", dealId: "d1" });
    expect(form.header.valid_until).toBe("2026-12-23");
    expect(form.header).toMatchObject({ currency: "TRY", customer_id: "c1", deal_id: "d1" });
    expect(form.lines).toHaveLength(1);
    expect(form.lines[0].vat_rate).toBe("20");
  });
  it("adds days across months and years", () => {
    expect(addDays("2026-12-20", 15)).toBe("2027-01-04");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
  });
});

describe("line operations", () => {
  const three = () => [emptyLine("20"), emptyLine("10"), emptyLine("0")];
  it("adds, duplicates (with a key of its own) and removes", () => {
    const lines = three();
    const added = linesReducer(lines, { type: "add", vatRate: "1" });
    expect(added.map((line) => line.vat_rate)).toEqual(["20", "10", "0", "1"]);
    const copied = linesReducer(lines, { type: "duplicate", index: 0 });
    expect(copied.map((line) => line.vat_rate)).toEqual(["20", "20", "10", "0"]);
    expect(copied[1].key).not.toBe(copied[0].key);
    expect(linesReducer(lines, { type: "remove", index: 1 }).map((line) => line.vat_rate)).toEqual(["20", "0"]);
  });
  it("moves a line up and down, and not past either end", () => {
    const lines = three();
    expect(linesReducer(lines, { type: "move", from: 2, to: 0 }).map((line) => line.vat_rate)).toEqual(["0", "20", "10"]);
    expect(linesReducer(lines, { type: "move", from: 0, to: 1 }).map((line) => line.vat_rate)).toEqual(["10", "20", "0"]);
    expect(linesReducer(lines, { type: "move", from: 0, to: -1 })).toBe(lines);
    expect(linesReducer(lines, { type: "move", from: 2, to: 3 })).toBe(lines);
  });
  it("clears the exemption reason when the rate is no longer zero", () => {
    const lines = linesReducer([emptyLine("0")], { type: "update", index: 0, patch: { vat_exemption_reason: "İhracat" } });
    expect(lines[0].vat_exemption_reason).toBe("İhracat");
    expect(linesReducer(lines, { type: "update", index: 0, patch: { vat_rate: "20" } })[0].vat_exemption_reason).toBe("");
  });
  it("fills a line from a product, keeping its quantity", () => {
    const product: Product = {
      id: "p1", name: "Danışmanlık", unit: "saat", unit_price: "1500.00", currency: "TRY", vat_rate: "20.00",
      description: null, active: true, updated_at: "2026-11-23T00:00:00Z",
    };
    const [line] = linesReducer([{ ...emptyLine("10"), quantity: "3" }], { type: "product", index: 0, product, language: "tr" });
    expect(line).toMatchObject({ product_id: "p1", description: "Danışmanlık", unit: "saat", unit_price: "1500,00", vat_rate: "20", quantity: "3" });
  });
});

describe("the payload", () => {
  it("sends every amount as an exact decimal string and numbers the lines from 1", () => {
    const form = emptyQuoteForm(defaults);
    form.header.document_discount_value = "5";
    form.lines = [
      { ...emptyLine("20"), description: "A", quantity: "2", unit_price: "1.000,50" },
      { ...emptyLine("0"), description: "B", quantity: "1,5", unit_price: "10", vat_exemption_reason: "İhracat istisnası" },
    ];
    const payload = quotePayload(form, "tr");
    expect(payload.errors).toEqual({});
    expect(payload.values).toMatchObject({ document_discount_type: "percent", document_discount_value: "5", exchange_rate: null, currency: "TRY" });
    form.header.document_discount_value = "";
    expect(quotePayload(form, "tr").values).toMatchObject({ document_discount_type: null, document_discount_value: "0" });
    expect(payload.items).toEqual([
      expect.objectContaining({ position: 1, quantity: "2", unit_price: "1000.50", vat_rate: "20", vat_exemption_reason: null, discount_value: "0" }),
      expect.objectContaining({ position: 2, quantity: "1.5", vat_rate: "0", vat_exemption_reason: "İhracat istisnası" }),
    ]);
  });
  it("sends an entered exchange rate only for a foreign currency (none: the organization's rate of the day)", () => {
    const form = emptyQuoteForm({ ...defaults, currency: "EUR" });
    expect(quotePayload(form, "tr").values.exchange_rate).toBeNull();
    form.header.exchange_rate = "44,9012";
    expect(quotePayload(form, "tr").values.exchange_rate).toBe("44.9012");
    form.header.currency = "TRY";
    expect(quotePayload(form, "tr").values.exchange_rate).toBeNull();
  });
  it("asks an exemption reason at KDV 0, and costs the line meanwhile", () => {
    const form = emptyQuoteForm(defaults);
    form.lines = [{ ...emptyLine("0"), description: "İhracat", quantity: "", unit_price: "100" }];
    const payload = quotePayload(form, "tr");
    expect(payload.errors).toEqual({ "items.0.vat_exemption_reason": "vat_exemption_required", "items.0.quantity": "required" });
    expect(payload.previewItems[0]).toMatchObject({ vat_exemption_reason: "…", quantity: "1", unit_price: "0" });
  });
  it("names the cells that stop a save; only numbers that are not numbers stop a preview", () => {
    const form = emptyQuoteForm(defaults);
    form.lines = [{ ...emptyLine("20"), description: "", quantity: "iki", unit_price: "" }];
    const { errors } = quotePayload(form, "tr");
    expect(errors).toEqual({ "items.0.description": "required", "items.0.quantity": "invalid", "items.0.unit_price": "required" });
    expect(previewBlocked(errors)).toBe(true);
    form.lines[0].quantity = "2";
    const typing = quotePayload(form, "tr");
    expect(previewBlocked(typing.errors)).toBe(false);
    expect(typing.previewItems[0]).toMatchObject({ description: "…", quantity: "2", unit_price: "0" });
    expect(previewBlocked({ "items.0.description": "required" })).toBe(false);
  });
});

describe("refusals", () => {
  it("maps a save's errors onto the header and the lines' cells", () => {
    const error = new RpcError("Invalid fields", "invalid_fields", { errors: { valid_until: "invalid", "items.2.vat_rate": "invalid", "items.2.vat_exemption_reason": "required" } });
    const errors = quoteErrorsOf(error)!;
    expect(headerErrors(errors)).toEqual({ valid_until: "invalid" });
    expect(lineErrors(errors, 2)).toEqual({ vat_rate: "invalid", vat_exemption_reason: "required" });
    expect(lineErrors(errors, 1)).toEqual({});
    expect(quoteErrorsOf(new RpcError("x", "invalid_fields", { fields: { quote_date: "required" } }))).toEqual({ quote_date: "required" });
    expect(quoteErrorsOf(new RpcError("Locked", "quote_locked"))).toBeNull();
  });
});

describe("KDV rates offered", () => {
  it("are the standard ones, the organization's and those on the lines, in order", () => {
    expect(vatRateOptions([8, "18.00"], [{ ...emptyLine("5") }])).toEqual(["0", "1", "5", "8", "10", "18", "20"]);
  });
});

describe("the editor on the record form", () => {
  it("names every header field, where a refusal about the header lands", () => {
    expect([...quoteHeaderFields].sort()).toEqual(Object.keys(emptyQuoteForm(defaults).header).sort());
  });

  it("keeps a refusal's line cells for the lines (the header's go on the form)", () => {
    expect(lineErrorsOnly({ valid_until: "before_quote_date", "items.0.quantity": "invalid", cf_sektor: "required", "items.2.vat_rate": "required" })).toEqual({
      "items.0.quantity": "invalid",
      "items.2.vat_rate": "required",
    });
    expect(lineErrorsOnly({ quote_date: "required" })).toEqual({});
  });

  it("tells lines changed since the editor opened: a cell, a line added, removed or moved; not the same cells again", () => {
    const initial = emptyQuoteForm(defaults).lines;
    expect(quoteLinesChanged(initial, initial)).toBe(false);
    const retyped = linesReducer(linesReducer(initial, { type: "update", index: 0, patch: { quantity: "2" } }), { type: "update", index: 0, patch: { quantity: "1" } });
    expect(quoteLinesChanged(initial, retyped)).toBe(false);
    expect(quoteLinesChanged(initial, linesReducer(initial, { type: "update", index: 0, patch: { description: "Danışmanlık" } }))).toBe(true);
    const two = linesReducer(initial, { type: "add", vatRate: "20" });
    expect(quoteLinesChanged(initial, two)).toBe(true);
    const named = linesReducer(two, { type: "update", index: 1, patch: { description: "İkinci" } });
    const moved = linesReducer(named, { type: "move", from: 1, to: 0 });
    expect(quoteLinesChanged(named, moved)).toBe(true);
    // A line added and removed again leaves the lines as they were.
    expect(quoteLinesChanged(initial, linesReducer(two, { type: "remove", index: 1 }))).toBe(false);
    expect(quoteLinesChanged(named, linesReducer(named, { type: "remove", index: 1 }))).toBe(true);
  });
});
