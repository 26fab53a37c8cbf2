import { describe, expect, it } from "vitest";
import {
  formatIban,
  isValidIban,
  isValidTckn,
  isValidVkn,
  isValidWebsite,
  normalizeIban,
  normalizePhone,
  randomValidIban,
  randomValidTckn,
  randomValidVkn,
} from "./turkish-identifiers.ts";

// The same cases as supabase/tests/08_customers/turkish_identifiers.sql (pgTAP cannot read a shared
// file, so each side keeps its own copy of the table): change both together.

/** A small deterministic generator (mulberry32), so a failing case can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The same number with its last digit changed to each of the nine other digits. */
function withOtherLastDigits(value: string): string[] {
  const last = Number(value.at(-1));
  return Array.from({ length: 9 }, (_, step) => `${value.slice(0, -1)}${(last + step + 1) % 10}`);
}

describe("isValidVkn", () => {
  it.each([
    // Documented valid numbers: python-stdnum and the npm package stdnum (4540536920), the
    // tcknvkn package (1000036109), published examples of the GİB algorithm (the rest).
    ["4540536920", true],
    ["1000036109", true],
    ["3973535717", true],
    ["2037637860", true],
    ["2823097943", true],
    ["2012460224", true],
    ["0340362913", true],
    ["4540536921", false],
    ["3973535711", false],
    ["1340362913", false],
    ["9999999999", false],
    ["0000000000", false],
    ["454053692", false],
    ["45405369200", false],
    ["454053692a", false],
    ["4540 536920", false],
    [" 4540536920", false],
    ["4540536920\n", false],
    ["", false],
  ])("%j → %s", (value, expected) => {
    expect(isValidVkn(value)).toBe(expected);
  });

  it("refuses null and undefined", () => {
    expect(isValidVkn(null)).toBe(false);
    expect(isValidVkn(undefined)).toBe(false);
  });

  it("refuses digits other than ASCII ones", () => {
    expect(isValidVkn("４５４０５３６９２０")).toBe(false);
    expect(isValidVkn("٤٥٤٠٥٣٦٩٢٠")).toBe(false);
  });

  it("accepts every generated number and refuses it with any other last digit", () => {
    const random = seededRandom(11);
    for (let run = 0; run < 500; run += 1) {
      const vkn = randomValidVkn(random);
      expect(vkn).toMatch(/^[0-9]{10}$/);
      expect(isValidVkn(vkn)).toBe(true);
      for (const changed of withOtherLastDigits(vkn)) expect(isValidVkn(changed)).toBe(false);
    }
  });

  it("has exactly one check digit for every prefix", () => {
    const random = seededRandom(12);
    for (let run = 0; run < 200; run += 1) {
      const prefix = randomValidVkn(random).slice(0, 9);
      const valid = Array.from({ length: 10 }, (_, digit) => `${prefix}${digit}`).filter(isValidVkn);
      expect(valid).toHaveLength(1);
    }
  });
});

describe("isValidTckn", () => {
  it.each([
    ["10000000146", true],
    ["17291716060", true],
    ["64211142102", true],
    ["62345678900", true],
    ["19090909018", true], // 7·1 − 36 = −29: the 10th digit is 1, a non-negative remainder
    ["10000000145", false], // wrong 11th digit
    ["10000000136", false], // wrong 10th digit
    ["17291716050", false],
    ["11111111111", false],
    ["01234567890", false], // a first digit 0 is never valid…
    ["00000000000", false], // …even where the check digits work out
    ["1000000014", false],
    ["100000001460", false],
    ["1000000014a", false],
    ["10000 000146", false],
    ["", false],
  ])("%j → %s", (value, expected) => {
    expect(isValidTckn(value)).toBe(expected);
  });

  it("refuses null and undefined", () => {
    expect(isValidTckn(null)).toBe(false);
    expect(isValidTckn(undefined)).toBe(false);
  });

  it("is never a VKN, nor a VKN a TCKN (the lengths differ)", () => {
    expect(isValidVkn("10000000146")).toBe(false);
    expect(isValidTckn("4540536920")).toBe(false);
  });

  it("accepts every generated number and refuses it with any other last digit", () => {
    const random = seededRandom(21);
    for (let run = 0; run < 500; run += 1) {
      const tckn = randomValidTckn(random);
      expect(tckn).toMatch(/^[1-9][0-9]{10}$/);
      expect(isValidTckn(tckn)).toBe(true);
      for (const changed of withOtherLastDigits(tckn)) expect(isValidTckn(changed)).toBe(false);
    }
  });

  it("refuses a generated number with its 10th digit changed", () => {
    const random = seededRandom(22);
    for (let run = 0; run < 200; run += 1) {
      const tckn = randomValidTckn(random);
      const tenth = Number(tckn[9]);
      const changed = `${tckn.slice(0, 9)}${(tenth + 1 + (run % 9)) % 10}${tckn[10]}`;
      expect(isValidTckn(changed)).toBe(false);
    }
  });

  it("builds from a random source at both ends of [0, 1)", () => {
    expect(isValidTckn(randomValidTckn(() => 0))).toBe(true);
    expect(isValidTckn(randomValidTckn(() => 0.999999999))).toBe(true);
    expect(isValidVkn(randomValidVkn(() => 0))).toBe(true);
    expect(isValidVkn(randomValidVkn(() => 0.999999999))).toBe(true);
  });
});

describe("normalizePhone", () => {
  it.each<[string, string | null]>([
    // Turkish numbers, every way they are written
    ["05321234567", "+905321234567"],
    ["0532 123 45 67", "+905321234567"],
    ["0 (532) 123-45-67", "+905321234567"],
    ["(0532) 123 45 67", "+905321234567"],
    ["0532.123.45.67", "+905321234567"],
    ["5321234567", "+905321234567"],
    ["532 123 4567", "+905321234567"],
    ["+905321234567", "+905321234567"],
    ["+90 532 123 45 67", "+905321234567"],
    ["+90 (532) 123-4567", "+905321234567"],
    ["0090 532 123 45 67", "+905321234567"],
    ["00905321234567", "+905321234567"],
    ["0212 555 12 34", "+902125551234"],
    ["(0216) 444-55-66", "+902164445566"],
    ["0312 123 45 67", "+903121234567"],
    ["0232\t4641234", "+902324641234"],
    ["0850 222 33 44", "+908502223344"],
    ["4441234567", "+904441234567"],
    ["0532\u00a0123\u00a045\u00a067", "+905321234567"],
    // other countries
    ["+49 30 1234567", "+49301234567"],
    ["0049 30 1234567", "+49301234567"],
    ["+1 (415) 555-2671", "+14155552671"],
    ["+44 20 7946 0958", "+442079460958"],
    ["+12345678", "+12345678"], // 8 digits, the shortest kept
    ["+123456789012345", "+123456789012345"], // 15 digits, the longest
    // invalid
    ["+1234567", null], // 7 digits
    ["+1234567890123456", null], // 16 digits
    ["+0123456789", null], // no country code starts with 0
    ["000123456789", null],
    ["0532123456", null], // one digit short
    ["053212345678", null], // one digit too many
    ["532123456", null],
    ["06321234567", null], // no Turkish number starts with 6, 7, 9, 0 or 1
    ["01321234567", null],
    ["09001234567", null],
    ["6321234567", null],
    ["+90532123456", null], // +90 with nine digits is not a Turkish number
    ["+9053212345678", null],
    ["+90 132 123 45 67", null],
    ["009053212345", null],
    ["905321234567", null], // a country code needs + or 00
    ["+90-532-ABC-4567", null],
    ["0532/123 45 67", null], // a slash is not dropped
    ["0532 123 45 67 dahili 12", null],
    ["+", null],
    ["00", null],
    ["", null],
    ["   ", null],
  ])("%j → %j", (value, expected) => {
    expect(normalizePhone(value)).toBe(expected);
  });

  it("gives null for null and undefined", () => {
    expect(normalizePhone(null)).toBeNull();
    expect(normalizePhone(undefined)).toBeNull();
  });

  it("is idempotent: a normalised number normalises to itself", () => {
    for (const value of ["05321234567", "+49 30 1234567", "0090 212 555 12 34"]) {
      const once = normalizePhone(value);
      expect(once).not.toBeNull();
      expect(normalizePhone(once)).toBe(once);
    }
  });
});

describe("isValidWebsite", () => {
  it.each([
    ["isikyazilim.com.tr", true],
    ["www.isikyazilim.com.tr", true],
    ["http://isikyazilim.com.tr", true],
    ["https://www.isikyazilim.com.tr/", true],
    ["HTTPS://WWW.ORNEK.COM", true],
    ["https://ornek.com.tr/urunler?kategori=gida#liste", true],
    ["https://ornek.com:8443/giris", true],
    ["ışık-yazılım.com.tr", true],
    ["https://güneş-enerji.com.tr/hakkımızda", true],
    ["a.co", true],
    ["xn--k-yazlm-8ya.com.tr", true],
    ["ornek.xn--90ae", true],
    ["https://" + "a".repeat(63) + ".com", true],
    ["ornek", false], // no dot
    ["https://localhost", false],
    ["ornek.c", false], // one-letter top-level domain
    ["ornek.123", false],
    ["ornek.com.", false],
    [".ornek.com", false],
    ["ornek..com", false],
    ["-ornek.com", false],
    ["ornek-.com", false],
    ["isik yazilim.com", false],
    ["https://ornek.com/bir sayfa", false],
    ["https://ornek.com/\u00a0", false],
    ["ornek.com\n", false],
    [" ornek.com", false],
    ["ftp://ornek.com", false],
    ["https//ornek.com", false],
    ["https://", false],
    ["mailto:info@ornek.com", false],
    ["info@ornek.com", false],
    ["https://kullanici@ornek.com", false],
    ["https://" + "a".repeat(64) + ".com", false], // a label is at most 63 characters
    ["https://ornek.com:123456", false],
    ["", false],
  ])("%j → %s", (value, expected) => {
    expect(isValidWebsite(value)).toBe(expected);
  });

  it("allows 300 characters, not 301 (code points, as PostgreSQL counts)", () => {
    const base = "https://ornek.com/";
    expect(isValidWebsite(base + "a".repeat(300 - base.length))).toBe(true);
    expect(isValidWebsite(base + "a".repeat(301 - base.length))).toBe(false);
    // ş is one code point; an emoji is two UTF-16 units but one character
    expect(isValidWebsite(base + "ş".repeat(300 - base.length))).toBe(true);
    expect(isValidWebsite(base + "😀".repeat(300 - base.length))).toBe(true);
    expect(isValidWebsite(base + "😀".repeat(301 - base.length))).toBe(false);
  });

  it("refuses null and undefined", () => {
    expect(isValidWebsite(null)).toBe(false);
    expect(isValidWebsite(undefined)).toBe(false);
  });
});

// The same cases as supabase/tests/06_settings_and_templates/organization_details.sql: change both together.
describe("normalizeIban", () => {
  it.each([
    // ISO 13616's Turkish example, then demo numbers with computed check digits.
    ["TR330006100519786457841326", "TR330006100519786457841326"],
    ["TR33 0006 1005 1978 6457 8413 26", "TR330006100519786457841326"],
    ["tr330006100519786457841326", "TR330006100519786457841326"],
    [" TR33 0006 1005 1978 6457 8413 26 ", "TR330006100519786457841326"],
    ["TR33\t0006\u00a01005 1978 6457 8413 26", "TR330006100519786457841326"],
    ["TR180006200119000006672315", "TR180006200119000006672315"],
    ["TR080006400000112340012345", "TR080006400000112340012345"],
    ["TR890001000000987654321001", "TR890001000000987654321001"],
    ["TR024996642917038961848562", "TR024996642917038961848562"],
    ["TR994996642917038961848562", null], // passes mod 97, but check digits are 02-98
    ["TR340006100519786457841326", null], // wrong check digits
    ["TR330006100519786457841327", null], // last digit changed
    ["TR330006100519786457841362", null], // two digits swapped
    ["TR000006100519786457841326", null],
    ["TR33000610051978645784132", null], // 25 characters
    ["TR3300061005197864578413261", null], // 27 characters
    ["DE89370400440532013000", null], // a valid German IBAN: not Turkish
    ["TR33-0006-1005-1978-6457-8413-26", null],
    ["TR33000610051978645784132A", null],
    ["", null],
    ["ＴＲ330006100519786457841326", null],
    ["TR33０006100519786457841326", null],
  ])("%j → %s", (value, expected) => {
    expect(normalizeIban(value)).toBe(expected);
    expect(isValidIban(value)).toBe(expected !== null);
  });

  it("refuses null, undefined and over-long input", () => {
    expect(normalizeIban(null)).toBeNull();
    expect(normalizeIban(undefined)).toBeNull();
    expect(normalizeIban(`TR33 0006 1005 1978 6457 8413 26${" ".repeat(40)}`)).toBeNull();
  });

  it("refuses every single-digit change of a valid IBAN (198 changes)", () => {
    const valid = "TR330006100519786457841326";
    for (let position = 4; position < valid.length; position += 1) {
      for (let step = 1; step <= 9; step += 1) {
        const digit = (Number(valid[position]) + step) % 10;
        expect(isValidIban(`${valid.slice(0, position)}${digit}${valid.slice(position + 1)}`)).toBe(false);
      }
    }
  });

  it("accepts every generated IBAN, spaced or not, and refuses it with other check digits", () => {
    const random = seededRandom(13);
    for (let run = 0; run < 300; run += 1) {
      const iban = randomValidIban(random);
      expect(iban).toMatch(/^TR[0-9]{24}$/);
      expect(normalizeIban(formatIban(iban).toLowerCase())).toBe(iban);
      const check = Number(iban.slice(2, 4));
      const other = String((check + 1 + Math.floor(random() * 96)) % 100).padStart(2, "0");
      expect(isValidIban(`TR${other}${iban.slice(4)}`)).toBe(false);
    }
  });

  it("prints a compact IBAN in groups of four", () => {
    expect(formatIban("TR330006100519786457841326")).toBe("TR33 0006 1005 1978 6457 8413 26");
  });
});
