/** The exchange-rates editor's rows, checked like private.is_valid_exchange_rates. */
export interface RateRow {
  currency: string;
  rate: number | "";
}

export function rowsOf(rates: Record<string, number>): RateRow[] {
  return Object.entries(rates)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, rate]) => ({ currency, rate }));
}

export function ratesOf(rows: RateRow[]): Record<string, number> {
  return Object.fromEntries(rows.map((row) => [row.currency, Number(row.rate)]));
}

/** The first row the server would refuse: a code of three capital letters, once, not the default currency; a positive rate. */
export function ratesProblem(rows: RateRow[], defaultCurrency: string): { index: number; key: "currencyInvalid" | "currencyTwice" | "currencyDefault" | "rateInvalid" } | null {
  for (const [index, row] of rows.entries()) {
    if (!/^[A-Z]{3}$/.test(row.currency)) return { index, key: "currencyInvalid" };
    if (row.currency === defaultCurrency) return { index, key: "currencyDefault" };
    if (rows.findIndex((other) => other.currency === row.currency) !== index) return { index, key: "currencyTwice" };
    if (row.rate === "" || !(row.rate > 0)) return { index, key: "rateInvalid" };
  }
  return null;
}
