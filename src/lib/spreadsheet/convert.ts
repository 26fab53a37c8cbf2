/**
 * Cells as Turkish users write them, turned into values: numbers ("1.234,56"), dates
 * ("31.12.2026"), yes/no, and header names folded for matching.
 */

const SPACES = /[\s\u00a0\u202f]/g;
const PERCENT = /%/g;

/**
 * A number as written in a Turkish (or English) spreadsheet, or null. Both separators
 * present: the last one is the decimal mark ("1.234,56", "1,234.56"). One kind only: a comma
 * is the decimal mark ("1234,5") unless it repeats in groups of three ("1,234,567"); a dot
 * repeated in groups of three separates thousands ("1.234.567"), and so does a single dot
 * followed by exactly three digits ("1.234" is 1234, as Turkish users write it); any other
 * single dot is the decimal mark ("12.5"). Spaces and % are ignored (a currency mark is not:
 * amounts drop theirs first); a leading minus or a number in parentheses is negative.
 */
export function parseTurkishNumber(text: string): number | null {
  let value = text.replace(SPACES, "").replace(PERCENT, "");
  if (value === "") return null;
  let negative = false;
  if (/^\(.*\)$/.test(value)) {
    negative = true;
    value = value.slice(1, -1);
  }
  if (value.startsWith("-") || value.startsWith("−")) {
    negative = !negative;
    value = value.slice(1);
  } else if (value.startsWith("+")) {
    value = value.slice(1);
  }
  const lastComma = value.lastIndexOf(",");
  const lastDot = value.lastIndexOf(".");
  if (lastComma >= 0 && lastDot >= 0) {
    const decimal = lastComma > lastDot ? "," : ".";
    const thousands = decimal === "," ? "." : ",";
    const [whole, fraction, ...rest] = value.split(decimal);
    if (rest.length > 0 || !groupedThousands(whole, thousands)) return null;
    value = `${whole.split(thousands).join("")}.${fraction}`;
  } else if (lastComma >= 0) {
    value = value.indexOf(",") !== lastComma && groupedThousands(value, ",") ? value.split(",").join("") : value.replace(",", ".");
  } else if (lastDot >= 0) {
    const parts = value.split(".");
    if (parts.length > 2 || (parts.length === 2 && /^\d{3}$/.test(parts[1]) && /^\d{1,3}$/.test(parts[0]))) {
      if (!groupedThousands(value, ".")) return null;
      value = parts.join("");
    }
  }
  if (!/^\d+(\.\d+)?$/.test(value) && !/^\d*\.\d+$/.test(value)) return null;
  const number = Number(value);
  return Number.isFinite(number) ? (negative ? -number : number) : null;
}

/** "1.234.567" grouped by `separator` in threes after a first group of one to three digits. */
function groupedThousands(value: string, separator: string): boolean {
  const groups = value.split(separator);
  return /^\d{1,3}$/.test(groups[0]) && groups.slice(1).every((group) => /^\d{3}$/.test(group));
}

const pad = (value: number) => String(value).padStart(2, "0");

/** y-m-d (and h:m:s) when they name a real moment, as ISO text; null otherwise. */
function isoDate(year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0, withTime = false): string | null {
  const moment = new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds));
  if (
    moment.getUTCFullYear() !== year ||
    moment.getUTCMonth() !== month - 1 ||
    moment.getUTCDate() !== day ||
    hours > 23 ||
    minutes > 59 ||
    seconds > 59 ||
    year < 1900 ||
    year > 2999
  ) {
    return null;
  }
  const date = `${year}-${pad(month)}-${pad(day)}`;
  return withTime ? `${date}T${pad(hours)}:${pad(minutes)}:${pad(seconds)}` : date;
}

/** Excel's day 0 (1899-12-30, which absorbs Excel's 1900 leap-year bug for every date after February 1900). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

/** An Excel serial date (days since 1899-12-30, the fraction the time of day) as ISO text. */
export function excelSerialToIso(serial: number): string | null {
  if (!Number.isFinite(serial) || serial < 1 || serial > 2_958_465) return null;
  const moment = new Date(EXCEL_EPOCH_MS + Math.round(serial * 86_400) * 1000);
  const withTime = moment.getUTCHours() + moment.getUTCMinutes() + moment.getUTCSeconds() > 0;
  return isoDate(
    moment.getUTCFullYear(),
    moment.getUTCMonth() + 1,
    moment.getUTCDate(),
    moment.getUTCHours(),
    moment.getUTCMinutes(),
    moment.getUTCSeconds(),
    withTime,
  );
}

/**
 * A date as written in Turkey ("31.12.2026", "31/12/2026", "1.2.26"), in ISO ("2026-12-31")
 * or as an Excel serial number (46022), optionally with a time ("31.12.2026 14:30"): ISO
 * text ("2026-12-31", or "2026-12-31T14:30:00", a wall-clock time in the organization's time
 * zone), or null for anything else, impossible dates (31.02.2026) included. Two-digit years
 * are 2000–2069 below 70, 1970–1999 from 70.
 */
export function parseTurkishDate(text: string): string | null {
  const value = text.trim();
  if (value === "") return null;
  const time = "(?:[ T](\\d{1,2}):(\\d{2})(?::(\\d{2}))?)?";
  const turkish = new RegExp(`^(\\d{1,2})[./-](\\d{1,2})[./-](\\d{2}|\\d{4})${time}$`).exec(value);
  if (turkish) {
    let year = Number(turkish[3]);
    if (turkish[3].length === 2) year += year < 70 ? 2000 : 1900;
    return isoDate(year, Number(turkish[2]), Number(turkish[1]), ...clock(turkish.slice(4)));
  }
  const iso = new RegExp(`^(\\d{4})-(\\d{1,2})-(\\d{1,2})${time}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:?\\d{2})?$`).exec(value);
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]), ...clock(iso.slice(4)));
  if (/^\d{5}(\.\d+)?$/.test(value)) return excelSerialToIso(Number(value));
  return null;
}

function clock(parts: (string | undefined)[]): [number, number, number, boolean] {
  const [hours, minutes, seconds] = parts;
  return hours === undefined ? [0, 0, 0, false] : [Number(hours), Number(minutes), Number(seconds ?? 0), true];
}

const TRUE_WORDS = new Set(["evet", "e", "var", "true", "dogru", "1", "yes", "y", "x", "✓"]);
const FALSE_WORDS = new Set(["hayir", "h", "yok", "false", "yanlis", "0", "no", "n"]);

/** Yes or no as people write it (evet/hayır, var/yok, true/false, 1/0, yes/no); null for anything else. */
export function parseBoolean(text: string): boolean | null {
  const value = foldHeader(text) || text.trim();
  if (TRUE_WORDS.has(value)) return true;
  if (FALSE_WORDS.has(value)) return false;
  return null;
}

/**
 * A header name folded for matching: Turkish letters to their Latin base (İ and I to i, ş to
 * s, ğ to g, ü to u, ö to o, ç to c), lower case, other accents dropped, and everything but
 * letters and digits removed, so "Vergi No", "vergi_no" and "VERGİ NO" are one name.
 */
export function foldHeader(text: string): string {
  return text
    .replace(/İ/g, "i")
    .replace(/I/g, "ı")
    .toLowerCase()
    .replace(/ı/g, "i")
    .replace(/ş/g, "s")
    .replace(/ğ/g, "g")
    .replace(/ü/g, "u")
    .replace(/ö/g, "o")
    .replace(/ç/g, "c")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9✓]/g, "");
}
