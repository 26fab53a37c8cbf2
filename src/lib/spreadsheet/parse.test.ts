import * as XLSX from "@e965/xlsx";
import { zipSync } from "fflate";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { importLimits, type ImportLimits } from "./limits.ts";
import { parseSpreadsheetBytes } from "./parse.ts";
import { SheetError } from "./sheet.ts";
import { customerCsvHeaders, makeCustomerCsv } from "./test-support.ts";
import { writeXlsx } from "./write.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);
const withBom = (text: string) => new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)]);

async function problem(bytes: Uint8Array, limits: ImportLimits = importLimits): Promise<string> {
  try {
    await parseSpreadsheetBytes(bytes, limits);
  } catch (error) {
    if (error instanceof SheetError) return error.problem;
    throw error;
  }
  return "parsed";
}

const turkish = "Firma Adı;Şehir;Tutar;Tarih\r\nIşık Çağ Ğüzel Ödeme Şirketi;İzmir;1.234,56;31.12.2026\r\nçğıöşü ÇĞİÖŞÜ;Muğla;12,5;01.02.2026\r\n";

describe("parseSpreadsheetBytes: text files", () => {
  it("reads Excel's Turkish CSV (Windows-1254, ';')", async () => {
    const sheet = await parseSpreadsheetBytes(new Uint8Array(iconv.encode(turkish, "win1254")));
    expect(sheet).toMatchObject({ encoding: "windows-1254", delimiter: ";", headers: ["Firma Adı", "Şehir", "Tutar", "Tarih"] });
    expect(sheet.rows).toEqual([
      ["Işık Çağ Ğüzel Ödeme Şirketi", "İzmir", "1.234,56", "31.12.2026"],
      ["çğıöşü ÇĞİÖŞÜ", "Muğla", "12,5", "01.02.2026"],
    ]);
    expect(sheet.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("reads UTF-8 with a BOM, and the same text without one", async () => {
    const withMark = await parseSpreadsheetBytes(withBom(turkish));
    const without = await parseSpreadsheetBytes(utf8(turkish));
    expect(withMark.encoding).toBe("utf-8");
    expect(withMark.headers[0]).toBe("Firma Adı");
    expect(without.rows).toEqual(withMark.rows);
    expect(without.sha256).not.toBe(withMark.sha256);
  });

  it("reads UTF-16 (Excel's Unicode text, tab-delimited)", async () => {
    const text = "Ad\tŞehir\r\nÇınar\tİzmir\r\n";
    const sheet = await parseSpreadsheetBytes(new Uint8Array([0xff, 0xfe, ...iconv.encode(text, "utf16le")]));
    expect(sheet).toMatchObject({ encoding: "utf-16le", delimiter: "\t", headers: ["Ad", "Şehir"], rows: [["Çınar", "İzmir"]] });
  });

  it("detects ',' and tab, keeps quoted line breaks and delimiters, drops empty lines", async () => {
    const comma = await parseSpreadsheetBytes(utf8('Ad,Adres,Not\n"Kaya, Ahmet","Atatürk Cad.\r\nNo: 5",x\n\n,,\nDemir,"Tek ""tırnak""",y\n'));
    expect(comma.delimiter).toBe(",");
    expect(comma.rows).toEqual([
      ["Kaya, Ahmet", "Atatürk Cad.\r\nNo: 5", "x"],
      ["Demir", 'Tek "tırnak"', "y"],
    ]);
    const tab = await parseSpreadsheetBytes(utf8("Ad\tŞehir\nAli\tBursa\n"));
    expect(tab).toMatchObject({ delimiter: "\t", rows: [["Ali", "Bursa"]] });
  });

  it("pads short rows and names empty headers", async () => {
    const sheet = await parseSpreadsheetBytes(utf8("Ad;;Şehir\nAli\n"));
    expect(sheet.headers).toEqual(["Ad", "#2", "Şehir"]);
    expect(sheet.rows).toEqual([["Ali", "", ""]]);
  });

  it("refuses duplicate headers, also when they differ only in case or Turkish letters", async () => {
    expect(await problem(utf8("Vergi No;VERGİ NO\n1;2\n"))).toBe("duplicate_headers");
    expect(await problem(utf8("Şehir;sehir\n1;2\n"))).toBe("duplicate_headers");
  });

  it("refuses empty files, a header without rows, binary files and unreadable text", async () => {
    expect(await problem(new Uint8Array())).toBe("empty");
    expect(await problem(utf8("\r\n\r\n"))).toBe("empty");
    expect(await problem(utf8("Ad;Şehir\r\n"))).toBe("empty");
    expect(await problem(utf8("%PDF-1.7\n"))).toBe("binary");
    expect(await problem(new Uint8Array([0x4d, 0x5a, 0x90, 0, 3]))).toBe("binary");
    expect(await problem(new Uint8Array([0x41, 0x64, 0x0a, 0x00, 0x01, 0x02]))).toBe("binary");
    expect(await problem(new Uint8Array([0x41, 0x64, 0x0a, 0x81, 0x02, 0x03, 0x0a]))).toBe("bad_encoding");
  });

  it("holds the limits: size, rows, columns and a cell of 10 MB", async () => {
    const small = { ...importLimits, maxRows: 3, maxColumns: 2, maxFileBytes: 200 };
    expect(await problem(utf8("Ad\n1\n2\n3\n"), small)).toBe("parsed");
    expect(await problem(utf8("Ad\n1\n2\n3\n4\n"), small)).toBe("too_many_rows");
    expect(await problem(utf8("A;B;C\n1;2;3\n"), small)).toBe("too_many_columns");
    expect(await problem(utf8("Ad\n" + "x".repeat(300)), small)).toBe("too_large");
    expect(await problem(utf8(`Ad;Not\nAli;${"ş".repeat(10 * 1024 * 1024)}\n`))).toBe("cell_too_long");
  });

  it("reads 100,000 customer rows", async () => {
    const sheet = await parseSpreadsheetBytes(withBom(makeCustomerCsv(100_000)));
    expect(sheet.headers).toEqual(customerCsvHeaders);
    expect(sheet.rows).toHaveLength(100_000);
    expect(sheet.rows[3][8]).toBe("ihracat, öncelikli");
  }, 30_000);
});

describe("parseSpreadsheetBytes: workbooks", () => {
  it("reads back what writeXlsx wrote: text, numbers with a decimal comma, dates as ISO, formulas as text", async () => {
    const blob = await writeXlsx(
      [
        { header: "Firma Adı", type: "text" },
        { header: "Tutar", type: "money" },
        { header: "Tarih", type: "date" },
      ],
      [
        ["Işık Çağ A.Ş.", 1234.56, new Date(2026, 11, 31)],
        ['=HYPERLINK("http://kotu.example")', 12, null],
      ],
      "Müşteriler",
    );
    const sheet = await parseSpreadsheetBytes(new Uint8Array(await blob.arrayBuffer()));
    expect(sheet).toMatchObject({ encoding: "xlsx", sheetName: "Müşteriler", headers: ["Firma Adı", "Tutar", "Tarih"] });
    expect(sheet.rows).toEqual([
      ["Işık Çağ A.Ş.", "1234,56", "2026-12-31"],
      ['=HYPERLINK("http://kotu.example")', "12", ""],
    ]);
  });

  it("takes the first sheet with data", async () => {
    const workbook = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([]), "Boş");
    XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([["Ad"], ["Öykü"]]), "Kişiler");
    const sheet = await parseSpreadsheetBytes(new Uint8Array(XLSX.write(workbook, { type: "array", bookType: "xlsx" }) as ArrayBuffer));
    expect(sheet).toMatchObject({ sheetName: "Kişiler", rows: [["Öykü"]] });
  });

  it("refuses a workbook of 60 sheets", async () => {
    const workbook = XLSX.utils.book_new();
    for (let index = 1; index <= 60; index++) XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([["Ad"], ["x"]]), `S${index}`);
    expect(await problem(new Uint8Array(XLSX.write(workbook, { type: "array", bookType: "xlsx" }) as ArrayBuffer))).toBe("too_many_sheets");
  });

  it("refuses a zip bomb before inflating it, and a zip that is no workbook", async () => {
    const bomb = zipSync({ "xl/worksheets/sheet1.xml": new Uint8Array(64 * 1024 * 1024) }, { level: 9 });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await problem(bomb)).toBe("zip_bomb");
    expect(await problem(zipSync({ "notes.txt": utf8("merhaba") }))).toBe("unreadable");
  });
});
