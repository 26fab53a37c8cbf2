/**
 * The quote editor's state: the header and the lines as typed (text, in the interface's
 * language), the line operations (add, duplicate, remove, move), and what a save or a preview
 * sends (every amount as an exact decimal string; nothing is computed here: totals come from
 * SQL). Refusals map back onto the header fields and the lines' cells.
 */
import { RpcError } from "@/lib/rpc.ts";
import type { DiscountType, Product, QuoteDetails, QuoteItemValues, QuoteValues } from "../api/quotes.ts";

/** The KDV rates every organization has; its own list adds to them. */
export const standardVatRates = ["0", "1", "10", "20"] as const;
/** Tevkifat ratios (GİB's): the share of the KDV the buyer withholds. */
export const withholdingRates = ["2/10", "3/10", "4/10", "5/10", "7/10", "9/10", "10/10"] as const;
/** Units offered while typing; any other text is allowed. */
export const unitSuggestions = ["adet", "saat", "gün", "ay", "kg", "m", "m²", "lt", "paket"] as const;

export interface QuoteHeaderForm {
  customer_id: string | null;
  contact_id: string | null;
  deal_id: string | null;
  quote_date: string;
  valid_until: string;
  currency: string;
  /** Entered by hand; empty: the organization's rate of the quote's date. */
  exchange_rate: string;
  prices_include_vat: boolean;
  payment_terms: string;
  notes: string;
  document_discount_type: DiscountType;
  document_discount_value: string;
}

/** The header's fields: where a save's refusal about the header lands in the record form. */
export const quoteHeaderFields = [
  "customer_id",
  "contact_id",
  "deal_id",
  "quote_date",
  "valid_until",
  "currency",
  "exchange_rate",
  "prices_include_vat",
  "payment_terms",
  "notes",
  "document_discount_type",
  "document_discount_value",
] as const satisfies readonly (keyof QuoteHeaderForm)[];

export interface QuoteLineForm {
  /** Stable while the line lives (React keys, drag ids); never sent. */
  key: string;
  product_id: string | null;
  description: string;
  quantity: string;
  unit: string;
  unit_price: string;
  discount_type: DiscountType;
  discount_value: string;
  vat_rate: string;
  vat_exemption_reason: string;
  withholding_rate: string | null;
}

export interface QuoteForm {
  header: QuoteHeaderForm;
  lines: QuoteLineForm[];
}

let lineCounter = 0;
function newLineKey(): string {
  lineCounter += 1;
  return `line-${lineCounter}`;
}

/**
 * A decimal typed by a person as an exact decimal string ("1.234,50" → "1234.50" in Turkish,
 * "1,234.50" → "1234.50" in English); "" when empty; null when it is not a number. Only the
 * characters move: nothing is parsed into a float.
 */
export function normalizeDecimal(text: string, language: string | undefined): string | null {
  let value = text.trim().replace(/[\s\u00a0]/g, "");
  if (value === "") return "";
  const negative = value.startsWith("-");
  if (negative) value = value.slice(1);
  const [decimalMark, groupMark] = language === "en" ? [".", ","] : [",", "."];
  if (value.includes(decimalMark)) {
    const [whole, fraction, ...rest] = value.split(decimalMark);
    if (rest.length > 0) return null;
    value = `${whole.split(groupMark).join("")}.${fraction}`;
  } else if (value.includes(groupMark)) {
    // Only whole groups of three read as thousands ("1.250" in Turkish); "12.5" is a decimal.
    const groups = value.split(groupMark);
    value = groups.slice(1).every((group) => group.length === 3) && groups[0].length <= 3 ? groups.join("") : groups.length === 2 ? `${groups[0]}.${groups[1]}` : "x";
  }
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(value)) return null;
  if (value.startsWith(".")) value = `0${value}`;
  if (value.endsWith(".")) value = value.slice(0, -1);
  return negative ? `-${value}` : value;
}

/** A KDV rate as the rate list names it ("20.00" → "20", "8.50" → "8.5"); the text itself when it is not a number. */
export function canonicalRate(rate: string): string {
  const value = normalizeDecimal(rate, "en");
  if (!value) return rate;
  return value.includes(".") ? value.replace(/0+$/, "").replace(/\.$/, "") : value;
}

/** The database's decimal ("1234.50") as it is typed in the interface's language ("1234,50"). */
export function decimalInputText(value: string | null | undefined, language: string | undefined): string {
  if (value === null || value === undefined) return "";
  // Zeros beyond the kuruş are the column's scale, not the user's ("2500.0000" → "2500.00"; "12.3450" → "12.345").
  const trimmed = value.replace(/^(-?\d+\.\d{2}\d*?)0+$/, "$1");
  return language === "en" ? trimmed : trimmed.replace(".", ",");
}

/** A calendar date ("2026-11-23") plus days, as a calendar date. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

export function emptyLine(vatRate: string): QuoteLineForm {
  return {
    key: newLineKey(),
    product_id: null,
    description: "",
    quantity: "1",
    unit: "adet",
    unit_price: "",
    discount_type: "percent",
    discount_value: "",
    vat_rate: vatRate,
    vat_exemption_reason: "",
    withholding_rate: null,
  };
}

export interface NewQuoteDefaults {
  today: string;
  validityDays: number;
  currency: string;
  vatRate: string;
  customerId?: string | null;
  contactId?: string | null;
  dealId?: string | null;
}

export function emptyQuoteForm(defaults: NewQuoteDefaults): QuoteForm {
  return {
    header: {
      customer_id: defaults.customerId ?? null,
      contact_id: defaults.contactId ?? null,
      deal_id: defaults.dealId ?? null,
      quote_date: defaults.today,
      valid_until: addDays(defaults.today, defaults.validityDays),
      currency: defaults.currency,
      exchange_rate: "",
      prices_include_vat: false,
      payment_terms: "",
      notes: "",
      document_discount_type: "percent",
      document_discount_value: "",
    },
    lines: [emptyLine(defaults.vatRate)],
  };
}

/** A saved quote in the editor. */
export function quoteFormOf(details: QuoteDetails, language: string | undefined): QuoteForm {
  const quote = details.quote;
  const text = (value: string | null | undefined) => decimalInputText(value, language);
  return {
    header: {
      customer_id: quote.customer_id,
      contact_id: quote.contact_id,
      deal_id: quote.deal_id,
      quote_date: quote.quote_date ?? "",
      valid_until: quote.valid_until ?? "",
      currency: quote.currency,
      exchange_rate: quote.exchange_rate_manual ? text(quote.exchange_rate) : "",
      prices_include_vat: quote.prices_include_vat,
      payment_terms: quote.payment_terms ?? "",
      notes: quote.notes ?? "",
      document_discount_type: quote.document_discount_type ?? "percent",
      document_discount_value: text(quote.document_discount_value),
    },
    lines: [...details.items]
      .sort((a, b) => a.position - b.position)
      .map((item) => ({
        key: newLineKey(),
        product_id: item.product_id,
        description: item.description ?? "",
        quantity: text(item.quantity),
        unit: item.unit ?? "",
        unit_price: text(item.unit_price),
        discount_type: item.discount_type ?? "percent",
        discount_value: text(item.discount_value),
        vat_rate: canonicalRate(item.vat_rate),
        vat_exemption_reason: item.vat_exemption_reason ?? "",
        withholding_rate: item.withholding_rate,
      })),
  };
}

/** A line filled from a product: its name, unit, price and KDV rate (the quantity and discount stay). */
export function lineWithProduct(line: QuoteLineForm, product: Product, language: string | undefined): QuoteLineForm {
  return {
    ...line,
    product_id: product.id,
    description: product.description ? `${product.name}\n${product.description}` : product.name,
    unit: product.unit ?? line.unit,
    unit_price: decimalInputText(product.unit_price, language),
    vat_rate: canonicalRate(product.vat_rate),
  };
}

export type LineAction =
  | { type: "add"; vatRate: string }
  | { type: "duplicate"; index: number }
  | { type: "remove"; index: number }
  | { type: "move"; from: number; to: number }
  | { type: "update"; index: number; patch: Partial<Omit<QuoteLineForm, "key">> }
  | { type: "product"; index: number; product: Product; language: string | undefined };

/** The lines after one operation; the order on screen is the order saved. */
export function linesReducer(lines: QuoteLineForm[], action: LineAction): QuoteLineForm[] {
  switch (action.type) {
    case "add":
      return [...lines, emptyLine(action.vatRate)];
    case "duplicate": {
      const line = lines[action.index];
      if (!line) return lines;
      return [...lines.slice(0, action.index + 1), { ...line, key: newLineKey() }, ...lines.slice(action.index + 1)];
    }
    case "remove":
      return lines.filter((_, index) => index !== action.index);
    case "move": {
      if (action.from === action.to || action.to < 0 || action.to >= lines.length || !lines[action.from]) return lines;
      const next = [...lines];
      const [moved] = next.splice(action.from, 1);
      next.splice(action.to, 0, moved);
      return next;
    }
    case "update":
      return lines.map((line, index) => {
        if (index !== action.index) return line;
        const next = { ...line, ...action.patch };
        // A reason only belongs to a zero rate.
        if (action.patch.vat_rate !== undefined && Number(action.patch.vat_rate) !== 0) next.vat_exemption_reason = "";
        return next;
      });
    case "product":
      return lines.map((line, index) => (index === action.index ? lineWithProduct(line, action.product, action.language) : line));
  }
}

/** The cells the browser can already tell are wrong: "quote_date" or "items.2.quantity" → error code. */
export type QuoteErrors = Record<string, string>;

export interface QuotePayload {
  values: QuoteValues;
  items: QuoteItemValues[];
  /**
   * The lines as a preview costs them while they are being typed: a missing description or
   * exemption reason does not change an amount (a placeholder stands in), a missing quantity
   * makes the line zero. So the database computes the totals before the form is complete.
   */
  previewItems: QuoteItemValues[];
  /** Cells that are not numbers (or required and empty); nothing is sent while any is. */
  errors: QuoteErrors;
}

const orNull = (text: string) => (text.trim() === "" ? null : text.trim());

/** What save_quote and preview_quote_totals get, and the cells that stop them. */
export function quotePayload(form: QuoteForm, language: string | undefined): QuotePayload {
  const errors: QuoteErrors = {};
  const number = (key: string, text: string, { required = false, fallback = "", canonical = false } = {}): string => {
    const value = normalizeDecimal(text, canonical ? "en" : language);
    if (value === null || value.startsWith("-")) {
      errors[key] = "invalid";
      return fallback;
    }
    if (value === "" && required) {
      errors[key] = "required";
      return fallback;
    }
    return value === "" ? fallback : value;
  };
  const { header } = form;
  if (header.quote_date === "") errors.quote_date = "required";
  const values: QuoteValues = {
    customer_id: header.customer_id,
    contact_id: header.contact_id,
    deal_id: header.deal_id,
    quote_date: header.quote_date,
    valid_until: header.valid_until || null,
    currency: header.currency,
    exchange_rate: header.currency === "TRY" ? null : number("exchange_rate", header.exchange_rate) || null,
    prices_include_vat: header.prices_include_vat,
    payment_terms: orNull(header.payment_terms),
    notes: orNull(header.notes),
    document_discount_type: header.document_discount_type,
    document_discount_value: number("document_discount_value", header.document_discount_value, { fallback: "0" }),
  };
  // No overall discount: no type either (a saved quote's history then shows no change of it).
  if (/^0*(\.0*)?$/.test(values.document_discount_value)) values.document_discount_type = null;
  const items = form.lines.map((line, index): QuoteItemValues => {
    const cell = (field: string) => `items.${index}.${field}`;
    const vatRate = number(cell("vat_rate"), line.vat_rate, { required: true, fallback: "0", canonical: true });
    if (line.description.trim() === "") errors[cell("description")] = "required";
    if (Number(vatRate) === 0 && line.vat_exemption_reason.trim() === "") errors[cell("vat_exemption_reason")] = "vat_exemption_required";
    return {
      position: index + 1,
      product_id: line.product_id,
      description: line.description.trim(),
      quantity: number(cell("quantity"), line.quantity, { required: true, fallback: "0" }),
      unit: orNull(line.unit),
      unit_price: number(cell("unit_price"), line.unit_price, { required: true, fallback: "0" }),
      discount_type: line.discount_type,
      discount_value: number(cell("discount_value"), line.discount_value, { fallback: "0" }),
      vat_rate: vatRate,
      vat_exemption_reason: Number(vatRate) === 0 ? orNull(line.vat_exemption_reason) : null,
      withholding_rate: line.withholding_rate,
    };
  });
  const previewItems = items.map((item, index) => {
    const cell = (field: string) => errors[`items.${index}.${field}`];
    const noQuantity = cell("quantity") !== undefined;
    return {
      ...item,
      description: item.description || "…",
      vat_exemption_reason: Number(item.vat_rate) === 0 ? (item.vat_exemption_reason ?? "…") : null,
      quantity: noQuantity ? "1" : item.quantity,
      unit_price: noQuantity ? "0" : item.unit_price,
    };
  });
  return { values, items, previewItems, errors };
}

/** Only cells that are not numbers hold the preview back (see QuotePayload.previewItems). */
export function previewBlocked(errors: QuoteErrors): boolean {
  return Object.values(errors).some((code) => code === "invalid");
}

/** A refusal's cell errors ({"valid_until": "invalid", "items.3.vat_rate": "required"}), or null. */
export function quoteErrorsOf(error: unknown): QuoteErrors | null {
  if (!(error instanceof RpcError)) return null;
  const map = error.details.errors ?? error.details.fields;
  if (typeof map !== "object" || map === null) return null;
  const entries = Object.entries(map).filter((entry): entry is [string, string] => typeof entry[1] === "string");
  return entries.length === 0 ? null : Object.fromEntries(entries);
}

/** The cell error codes save_quote and preview_quote_totals answer (private.clean_quote_items, prepare_quote). */
export const cellErrorCodes = [
  "required",
  "invalid",
  "not_found",
  "too_long",
  "unknown_field",
  "invalid_vat_rate",
  "vat_exemption_required",
  "discount_exceeds_line",
  "discount_exceeds_total",
  "before_quote_date",
  "quote_locked",
] as const;
export type CellErrorCode = (typeof cellErrorCodes)[number];

/** The catalogue key of a cell's error code (an unknown one reads "invalid"). */
export function cellErrorKey(code: string): `modules.quotes.cellErrors.${CellErrorCode}` {
  const known = cellErrorCodes.find((candidate) => candidate === code) ?? "invalid";
  return `modules.quotes.cellErrors.${known}`;
}

/** The errors of one line ({quantity: "invalid"}), from a map keyed "items.<index>.<field>". */
export function lineErrors(errors: QuoteErrors, index: number): Record<string, string> {
  const prefix = `items.${index}.`;
  return Object.fromEntries(
    Object.entries(errors)
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, code]) => [key.slice(prefix.length), code]),
  );
}

/** The errors about the lines' cells (every "items.…" key); the header's are the record form's. */
export function lineErrorsOnly(errors: QuoteErrors): QuoteErrors {
  return Object.fromEntries(Object.entries(errors).filter(([key]) => key.startsWith("items.")));
}

/**
 * Whether the lines differ from those the editor opened with (a change not saved yet): any
 * cell, or a line added, removed or moved. The lines' keys are the editor's own, never compared.
 */
export function quoteLinesChanged(initial: readonly QuoteLineForm[], lines: readonly QuoteLineForm[]): boolean {
  if (initial === lines) return false;
  const cells = (list: readonly QuoteLineForm[]) => JSON.stringify(list, (name, value: unknown) => (name === "key" ? undefined : value));
  return cells(initial) !== cells(lines);
}

/** The errors about the header (every key that is not a line's). */
export function headerErrors(errors: QuoteErrors): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).filter(([key]) => !key.startsWith("items.")));
}

/** The KDV rates offered: the standard ones, the organization's own, and any rate already on a line, in order. */
export function vatRateOptions(organizationRates: readonly (string | number)[], lines: readonly QuoteLineForm[]): string[] {
  const all = new Set<string>([...standardVatRates, ...organizationRates.map((rate) => canonicalRate(String(rate)))]);
  for (const line of lines) if (line.vat_rate !== "") all.add(line.vat_rate);
  return [...all].filter((rate) => rate !== "").sort((a, b) => Number(a) - Number(b));
}
