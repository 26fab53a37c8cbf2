import { describe, expect, it } from "vitest";
import { excelSerialToIso, foldHeader, parseBoolean, parseTurkishDate, parseTurkishNumber } from "./convert.ts";

describe("parseTurkishNumber", () => {
  it.each([
    ["1.234,56", 1234.56],
    ["1234,5", 1234.5],
    ["1,234.56", 1234.56],
    ["1.234.567", 1234567],
    ["1,234,567", 1234567],
    ["1.234", 1234],
    ["12.5", 12.5],
    ["1234.56", 1234.56],
    ["0,5", 0.5],
    ["-12", -12],
    ["(1.250,00)", -1250],
    ["%20", 20],
    ["1 234,56", 1234.56],
  ])("%s → %d", (text, expected) => {
    expect(parseTurkishNumber(text)).toBe(expected);
  });

  it.each(["", "  ", "abc", "40 TL", "1,2,3", "1.2.3", "12a", "1.234,5,6", "--1"])("%j is no number", (text) => {
    expect(parseTurkishNumber(text)).toBeNull();
  });
});

describe("parseTurkishDate", () => {
  it.each([
    ["31.12.2026", "2026-12-31"],
    ["1.2.2026", "2026-02-01"],
    ["31/12/2026", "2026-12-31"],
    ["31-12-2026", "2026-12-31"],
    ["31.12.26", "2026-12-31"],
    ["2026-12-31", "2026-12-31"],
    ["31.12.2026 14:30", "2026-12-31T14:30:00"],
    ["2026-12-31T09:05:07", "2026-12-31T09:05:07"],
    ["46022", "2025-12-31"],
    ["29.02.2028", "2028-02-29"],
  ])("%s → %s", (text, expected) => {
    expect(parseTurkishDate(text)).toBe(expected);
  });

  it.each(["", "31.02.2026", "29.02.2027", "32.01.2026", "12/31/2026x", "yarın", "31.12.2026 25:00", "1234"])("%j is no date", (text) => {
    expect(parseTurkishDate(text)).toBeNull();
  });

  it("reads Excel serials with a time of day", () => {
    expect(excelSerialToIso(46022.5)).toBe("2025-12-31T12:00:00");
    expect(excelSerialToIso(0)).toBeNull();
  });
});

describe("parseBoolean", () => {
  it.each([
    ["Evet", true],
    ["HAYIR", false],
    ["var", true],
    ["Yok", false],
    ["true", true],
    ["0", false],
    ["yes", true],
  ])("%s → %s", (text, expected) => {
    expect(parseBoolean(text)).toBe(expected);
  });

  it("is null for anything else", () => {
    expect(parseBoolean("belki")).toBeNull();
    expect(parseBoolean("")).toBeNull();
  });
});

describe("foldHeader", () => {
  it("makes Turkish spellings of one header equal", () => {
    expect(new Set(["Vergi No", "vergi_no", "VERGİ NO", "Vergi-No."].map(foldHeader))).toEqual(new Set(["vergino"]));
    expect(foldHeader("Şehir")).toBe("sehir");
    expect(foldHeader("IŞIK ÇAĞ Ğ Ü Ö")).toBe("isikcagguo");
    expect(foldHeader("E-posta")).toBe("eposta");
  });
});
