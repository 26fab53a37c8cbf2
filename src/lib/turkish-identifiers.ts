/**
 * Turkish identifiers, checked first in the browser with exactly the rules the database
 * applies (supabase/schemas/08_customers.sql: private.is_valid_vkn,
 * private.is_valid_tckn, private.normalize_phone, private.is_valid_website;
 * supabase/schemas/06_settings_and_templates.sql: private.normalize_iban). The database's
 * answer is the one that counts; these only spare a round trip.
 */

/**
 * The whitespace that a phone number may carry and a website may not: ECMAScript's `\s`
 * (tab, line feed, vertical tab, form feed, carriage return, space, no-break space, the
 * other Unicode space separators, line and paragraph separators, U+FEFF), spelled out so
 * that the SQL version lists the very same characters.
 */
const WHITESPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";

const TEN_DIGITS = /^[0-9]{10}$/;
const TCKN_SHAPE = /^[1-9][0-9]{10}$/;

function digitsOf(value: string): number[] {
  return Array.from(value, (character) => character.charCodeAt(0) - 48);
}

/** The VKN check digit (10th) for its first nine digits (Gelir İdaresi's algorithm). */
function vknCheckDigit(first9: readonly number[]): number {
  let sum = 0;
  for (let i = 1; i <= 9; i += 1) {
    const tmp = (first9[i - 1] + 10 - i) % 10;
    sum += tmp === 9 ? 9 : (tmp * 2 ** (10 - i)) % 9;
  }
  return (10 - (sum % 10)) % 10;
}

/** The two TCKN check digits (10th and 11th) for its first nine digits. */
function tcknCheckDigits(first9: readonly number[]): [number, number] {
  const odd = first9[0] + first9[2] + first9[4] + first9[6] + first9[8];
  const even = first9[1] + first9[3] + first9[5] + first9[7];
  const tenth = (((odd * 7 - even) % 10) + 10) % 10;
  const eleventh = (first9.reduce((total, digit) => total + digit, 0) + tenth) % 10;
  return [tenth, eleventh];
}

/**
 * A Vergi Kimlik Numarası: exactly ten ASCII digits (nothing else, not even spaces), the
 * last one the check digit. A first digit 0 is allowed.
 */
export function isValidVkn(value: string | null | undefined): boolean {
  if (value == null || !TEN_DIGITS.test(value)) return false;
  const digits = digitsOf(value);
  return vknCheckDigit(digits.slice(0, 9)) === digits[9];
}

/**
 * A T.C. Kimlik No: exactly eleven ASCII digits, the first not 0; the 10th is
 * ((d1+d3+d5+d7+d9)·7 − (d2+d4+d6+d8)) mod 10, the 11th the sum of the first ten mod 10.
 */
export function isValidTckn(value: string | null | undefined): boolean {
  if (value == null || !TCKN_SHAPE.test(value)) return false;
  const digits = digitsOf(value);
  const [tenth, eleventh] = tcknCheckDigits(digits.slice(0, 9));
  return digits[9] === tenth && digits[10] === eleventh;
}

const PHONE_NOISE = new RegExp(`[${WHITESPACE}().-]`, "g");
const TURKISH_NATIONAL = /^[2-58][0-9]{9}$/;
const INTERNATIONAL = /^[1-9][0-9]{7,14}$/;

/**
 * A phone number in E.164 form, or null when it is not one. Spaces, dashes, dots and
 * parentheses are dropped. A Turkish number (ten national digits starting with 2–5 or 8)
 * written 0XXXXXXXXXX, XXXXXXXXXX, +90XXXXXXXXXX or 0090XXXXXXXXXX becomes +90XXXXXXXXXX;
 * anything else starting with +90 or 0090 is invalid. Another country's number written
 * +<8 to 15 digits> or 00<8 to 15 digits> (country code not starting with 0) is kept as
 * +<digits>.
 */
export function normalizePhone(value: string | null | undefined): string | null {
  if (value == null) return null;
  const compact = value.replace(PHONE_NOISE, "");
  // 0 and ten digits is a Turkish number dialled at home; 00 starts an international one.
  if (/^0[1-9][0-9]{9}$/.test(compact)) {
    return TURKISH_NATIONAL.test(compact.slice(1)) ? `+90${compact.slice(1)}` : null;
  }
  if (TURKISH_NATIONAL.test(compact)) return `+90${compact}`;
  let international: string;
  if (compact.startsWith("+")) international = compact.slice(1);
  else if (compact.startsWith("00")) international = compact.slice(2);
  else return null;
  if (international.startsWith("90")) {
    const national = international.slice(2);
    return TURKISH_NATIONAL.test(national) ? `+90${national}` : null;
  }
  return INTERNATIONAL.test(international) ? `+${international}` : null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An e-mail address as the record forms check it (something@host.tld, no spaces); the database checks the same shape. */
export function isValidEmail(value: string | null | undefined): boolean {
  return value != null && EMAIL.test(value);
}

const LABEL_CHAR = "0-9A-Za-zÇĞİÖŞÜçğıöşü";
const LABEL = `[${LABEL_CHAR}]([${LABEL_CHAR}-]{0,61}[${LABEL_CHAR}])?`;
const TOP_LEVEL = "([A-Za-z]{2,63}|[Xx][Nn]--[0-9A-Za-z-]{1,59})";
const WEBSITE = new RegExp(
  `^([Hh][Tt][Tt][Pp][Ss]?://)?(${LABEL}\\.)+${TOP_LEVEL}(:[0-9]{1,5})?([/?#][^${WHITESPACE}]*)?$`,
);

/** Counts code points (as PostgreSQL's char_length does), not UTF-16 units. */
function codePointLength(value: string): number {
  return Array.from(value).length;
}

/**
 * A website: at most 300 characters, no whitespace, an optional http:// or https://, a host
 * of dot-separated labels (letters including Turkish ones, digits, inner hyphens) ending in
 * a top-level domain of letters (or xn--…), an optional port, then an optional path, query
 * or fragment.
 */
export function isValidWebsite(value: string | null | undefined): boolean {
  return value != null && codePointLength(value) <= 300 && WEBSITE.test(value);
}

const IBAN_WHITESPACE = new RegExp(`[${WHITESPACE}]`, "g");
const TURKISH_IBAN = /^TR[0-9]{24}$/;

/** The ISO 13616 remainder of an IBAN's digits after moving its first four characters to the end (T = 29, R = 27). */
function ibanRemainder(compact: string): number {
  const rearranged = `${compact.slice(4)}2927${compact.slice(2, 4)}`;
  let remainder = 0;
  for (const character of rearranged) remainder = (remainder * 10 + (character.charCodeAt(0) - 48)) % 97;
  return remainder;
}

/**
 * A Turkish IBAN in compact form (TR and 24 digits, upper case), or null when it is not one.
 * Whitespace is dropped and letters upper-cased first, so "tr33 0006 1005 1978 6457 8413 26"
 * is accepted; the check digits must be 02-98 and pass ISO 13616's mod-97 test (remainder 1).
 * At most 64 characters are looked at (longer input is refused).
 */
export function normalizeIban(value: string | null | undefined): string | null {
  if (value == null || codePointLength(value) > 64) return null;
  const compact = value.replace(IBAN_WHITESPACE, "").toUpperCase();
  if (!TURKISH_IBAN.test(compact)) return null;
  const checkDigits = Number(compact.slice(2, 4));
  if (checkDigits < 2 || checkDigits > 98) return null;
  return ibanRemainder(compact) === 1 ? compact : null;
}

/** Whether the value is a Turkish IBAN (normalizeIban gives it a compact form). */
export function isValidIban(value: string | null | undefined): boolean {
  return normalizeIban(value) !== null;
}

/** A compact IBAN in groups of four ("TR33 0006 1005 …"), as it is printed. */
export function formatIban(compact: string): string {
  return compact.replace(/(.{4})(?=.)/g, "$1 ");
}

/** A valid Turkish IBAN built from `random` (values in [0, 1)): TR, the computed check digits, 22 random digits. */
export function randomValidIban(random: () => number): string {
  const bban = Array.from({ length: 22 }, () => Math.floor(random() * 10) % 10).join("");
  const check = 98 - ibanRemainder(`TR00${bban}`);
  return `TR${String(check).padStart(2, "0")}${bban}`;
}

/** A valid VKN built from `random` (values in [0, 1)): nine random digits and their check digit. */
export function randomValidVkn(random: () => number): string {
  const first9 = Array.from({ length: 9 }, () => Math.floor(random() * 10) % 10);
  return [...first9, vknCheckDigit(first9)].join("");
}

/** A valid TCKN built from `random` (values in [0, 1)): a first digit 1–9, eight more, the two check digits. */
export function randomValidTckn(random: () => number): string {
  const first9 = Array.from({ length: 9 }, (_, index) =>
    index === 0 ? 1 + (Math.floor(random() * 9) % 9) : Math.floor(random() * 10) % 10,
  );
  return [...first9, ...tcknCheckDigits(first9)].join("");
}
