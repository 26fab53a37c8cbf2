/**
 * What a quote or contract document is made of once its numbers are formatted: text values
 * for the placeholders, the item lines, the KDV split per rate. Every amount is text already
 * formatted from the database's exact decimals: a renderer shows it and never adds it up.
 */
import type { PlaceholderValues } from "./placeholders.ts";

/** One line of the items table. */
export interface DocumentItemRow {
  position: string | number;
  description: string;
  /** The quantity with its unit when it has one ("10 adet"). */
  quantity: string;
  unit: string;
  unit_price: string;
  /** The line discount as shown ("%10", "₺50,00"), or "" when none. */
  discount: string;
  vat_rate: string;
  line_net: string;
  line_vat: string;
  line_gross: string;
  /** A 0 % KDV line's exemption (istisna/muafiyet) reason, printed under the table; "" or absent when none. */
  vat_exemption_reason?: string;
  /** A line's KDV withholding (tevkifat) ratio ("7/10") and amount, printed under the table; absent when none. */
  withholding?: { rate: string; amount: string };
}

/** One rate of the KDV split: the base taxed at that rate and the tax. */
export interface VatBreakdownRow {
  rate: string;
  base: string;
  vat: string;
  /** The KDV withheld at that rate; absent or "" when none. */
  withholding?: string;
}

export interface DocumentData {
  values: PlaceholderValues;
  items: readonly DocumentItemRow[];
  vatBreakdown: readonly VatBreakdownRow[];
}

/**
 * The rows of the totals block, in order, each read from its `totals.*` placeholder. The line
 * discounts and the document discount stay two rows: each is a total from SQL, and the
 * browser adds nothing up.
 */
export const totalsRowKeys = ["gross", "line_discounts", "document_discount", "net", "vat", "withholding", "total", "total_try"] as const;
export type TotalsRowKey = (typeof totalsRowKeys)[number];

/** The totals block's rows that have a value (no discount or withholding rows for a quote without them). */
export function totalsRows(values: PlaceholderValues): { key: TotalsRowKey; value: string }[] {
  return totalsRowKeys.flatMap((key) => {
    const value = values[`totals.${key}`];
    return value ? [{ key, value }] : [];
  });
}
