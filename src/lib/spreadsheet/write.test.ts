import * as XLSX from "@e965/xlsx";
import { describe, expect, it } from "vitest";
import { isPhoneText, neutralizeFormula, writeCsv, writeXlsx, type ExportColumn } from "./write.ts";

const columns: ExportColumn[] = [
  { header: "Ad", type: "text" },
  { header: "Tutar", type: "money" },
  { header: "Olasılık", type: "number" },
  { header: "Tarih", type: "date" },
  { header: "Güncellendi", type: "datetime" },
];
const rows = [
  ["Işık Çelik; \"Özel\" A.Ş.", 1234.5, 12.25, new Date(2026, 11, 31), new Date(2026, 0, 2, 9, 5)],
  ["=HYPERLINK(\"http://kotu.example\",\"tıkla\")", null, -3, null, null],
  ["+905321234567", 0, 0, null, null],
  ["@SUM(A1)", null, null, null, null],
  ["\tsekme", null, null, null, null],
  ["satır\nkırılımı", null, null, null, null],
];

describe("neutralizeFormula", () => {
  it("prefixes what a spreadsheet would run, and nothing else", () => {
    for (const text of ["=1+1", "+1", "-1", "@x", "\tx", "\rx", "\nx", "\u0000x"]) expect(neutralizeFormula(text)).toBe(`'${text}`);
    for (const text of ["Ankara", "1+1", "e-posta", ""]) expect(neutralizeFormula(text)).toBe(text);
  });

  it("also prefixes a formula after leading white space of any kind", () => {
    const spaces = [" ", "  ", "\t", "\u00A0", "\u2007", "\u202F", "\u3000", "\u2003", "\u200B", "\uFEFF", "\u2060", " \u00A0\t"];
    for (const space of spaces) {
      for (const start of ["=", "+", "-", "@"]) {
        const text = `${space}${start}HYPERLINK("http://kotu.example")`;
        expect(neutralizeFormula(text), JSON.stringify(text)).toBe(`'${text}`);
      }
    }
  });

  it("also prefixes the full-width and small forms of = + - @", () => {
    for (const start of ["\uFF1D", "\uFE66", "\uFF0B", "\uFE62", "\uFF0D", "\uFE63", "\uFF20", "\uFE6B"]) {
      for (const text of [`${start}1+1`, ` ${start}1+1`, `\u00A0${start}SUM(A1)`]) {
        expect(neutralizeFormula(text), JSON.stringify(text)).toBe(`'${text}`);
      }
    }
  });

  it("leaves phone numbers as they are, and still prefixes a formula made to look like one", () => {
    for (const text of ["+90 224 212 49 33", "+905321234567", "+1 (212) 555-0123", "+49 30 123456", "+90-224-212-49-33", "+90 224/212 49 33"]) {
      expect(neutralizeFormula(text), text).toBe(text);
      expect(isPhoneText(text), text).toBe(true);
    }
    // Letters, another operator, too few or too many digits, or no leading +: the guard as before.
    for (const text of ["+90 224 CMD", "+1+1", "+12345", "+1234567890123456", "+90 224 212 49 33*2", "+90 224,212", "-905321234567", "=905321234567", "@905321234567", "+", "+()"]) {
      expect(neutralizeFormula(text), text).toBe(`'${text}`);
    }
    expect(isPhoneText("0224 212 49 33")).toBe(false);
  });

  it("leaves text with white space but no formula character alone", () => {
    for (const text of [" Ankara", "\u00A0Işık", "  1+1", "\u3000東京", "Ankara ="]) expect(neutralizeFormula(text)).toBe(text);
  });
});

describe("writeCsv", () => {
  it("writes UTF-8 with BOM, ';', CRLF, quotes, Turkish numbers and dates, inert formulas", async () => {
    const bytes = new Uint8Array(await writeCsv(columns, rows).arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.subarray(3));
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("Ad;Tutar;Olasılık;Tarih;Güncellendi");
    expect(lines[1]).toBe('"Işık Çelik; ""Özel"" A.Ş.";1.234,50;12,25;31.12.2026;02.01.2026 09:05');
    expect(lines[2]).toBe(`"'=HYPERLINK(""http://kotu.example"",""tıkla"")";;-3;;`);
    // A phone number is written as it is (no apostrophe): it cannot run anything.
    expect(lines[3]).toBe("+905321234567;0,00;0;;");
    expect(lines[4]).toBe("'@SUM(A1);;;;");
    expect(lines[5]).toBe("'\tsekme;;;;");
    expect(text).toContain('"satır\nkırılımı"');
  });
});

describe("writeXlsx", () => {
  it("writes numbers and dates as such and every text, formulas too, as a string", async () => {
    const blob = await writeXlsx(columns, rows, "Müşteriler: tümü");
    const workbook = XLSX.read(new Uint8Array(await blob.arrayBuffer()), { type: "array", cellFormula: true, cellNF: true });
    expect(workbook.SheetNames).toEqual(["Müşteriler  tümü"]);
    const sheet = workbook.Sheets[workbook.SheetNames[0]];
    expect(sheet.A1.v).toBe("Ad");
    expect(sheet.A2).toMatchObject({ t: "s", v: "Işık Çelik; \"Özel\" A.Ş." });
    expect(sheet.A3).toMatchObject({ t: "s", v: "=HYPERLINK(\"http://kotu.example\",\"tıkla\")" });
    expect(sheet.A3.f).toBeUndefined();
    expect(sheet.B2).toMatchObject({ t: "n", v: 1234.5, z: "#,##0.00" });
    expect(sheet.C3).toMatchObject({ t: "n", v: -3 });
    expect(sheet.D2.t).toBe("n");
    expect(XLSX.SSF.format(sheet.D2.z as string, sheet.D2.v as number)).toBe("31.12.2026");
    expect(XLSX.SSF.format(sheet.E2.z as string, sheet.E2.v as number)).toBe("02.01.2026 09:05");
    expect(sheet.B3).toBeUndefined();
  });
});
