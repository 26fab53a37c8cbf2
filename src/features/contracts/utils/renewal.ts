/**
 * The renewal dialog's arithmetic, as renew_contract does it: the next term's default
 * dates (the day after the end; as many months as the renewal term, less a day, a month
 * end kept as PostgreSQL adds months) and the value raised by a percentage, exact to the
 * kuruş (decimal strings and BigInt, never a float; half away from zero, as SQL's round).
 */

const DECIMAL = /^\d{1,16}(\.\d{1,2})?$/;
const PERCENT = /^\d{1,4}(\.\d{1,4})?$/;

const pad = (value: number, length = 2) => String(value).padStart(length, "0");
const isoOf = (date: Date) => `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
const utcOf = (iso: string) => {
  const [year, month, day] = iso.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day));
};

/** The day after a calendar date ("2026-12-31" → "2027-01-01"). */
export function dayAfter(date: string): string {
  const next = utcOf(date);
  next.setUTCDate(next.getUTCDate() + 1);
  return isoOf(next);
}

/** start + months - 1 day, the month's last day where the start's day does not exist (Jan 31 + 1 month = Feb 28). */
export function termEnd(start: string, months: number): string {
  const [year, month, day] = start.split("-").map(Number);
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay) - 1);
  return isoOf(target);
}

/** The next term's default start and end after a term ending on `end`. */
export function nextTermDefaults(end: string, months: number): { start: string; end: string } {
  const start = dayAfter(end);
  return { start, end: termEnd(start, months) };
}

/** A value typed as a decimal ("1250.5", "1250,50" in Turkish is accepted) as "1250.50"-like text, or null when it is not one. */
export function normalDecimal(value: string, pattern: RegExp = DECIMAL): string | null {
  const text = value.trim().replace(",", ".");
  return pattern.test(text) ? text : null;
}

/** A percentage from 0 to 1000 with at most four decimals, normalized, or null. */
export function normalPercent(value: string): string | null {
  const text = normalDecimal(value, PERCENT);
  return text !== null && scaled(text, 4) <= 1000n * 10_000n ? text : null;
}

function scaled(text: string, places: number): bigint {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole + fraction.padEnd(places, "0"));
}

/** value × (100 + percent) / 100 rounded to the kuruş, as a decimal string ("14438.00"); null for bad input. */
export function increasedValue(value: string, percent: string): string | null {
  const amount = normalDecimal(value);
  const rate = normalPercent(percent);
  if (amount === null || rate === null) return null;
  // kuruş × (1,000,000 + percent × 10,000) / 1,000,000, rounded half up (amounts are not negative).
  const numerator = scaled(amount, 2) * (1_000_000n + scaled(rate, 4));
  const kurus = (numerator + 500_000n) / 1_000_000n;
  const text = kurus.toString().padStart(3, "0");
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}
