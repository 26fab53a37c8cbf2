import { describe, expect, it } from "vitest";
import { amountInWords, amountInWordsEn, amountInWordsTr } from "./amount-in-words.ts";

describe("amountInWordsTr", () => {
  it.each([
    ["1234.50", "TRY", "Bin İki Yüz Otuz Dört Türk Lirası Elli Kuruş"],
    ["0", "TRY", "Sıfır Türk Lirası"],
    ["0.00", "TRY", "Sıfır Türk Lirası"],
    ["0.05", "TRY", "Beş Kuruş"],
    ["1", "TRY", "Bir Türk Lirası"],
    ["10", "TRY", "On Türk Lirası"],
    ["11", "TRY", "On Bir Türk Lirası"],
    ["100", "TRY", "Yüz Türk Lirası"],
    ["101", "TRY", "Yüz Bir Türk Lirası"],
    ["199", "TRY", "Yüz Doksan Dokuz Türk Lirası"],
    ["200", "TRY", "İki Yüz Türk Lirası"],
    ["1000", "TRY", "Bin Türk Lirası"],
    ["1001", "TRY", "Bin Bir Türk Lirası"],
    ["1100", "TRY", "Bin Yüz Türk Lirası"],
    ["2000", "TRY", "İki Bin Türk Lirası"],
    ["11000", "TRY", "On Bir Bin Türk Lirası"],
    ["100000", "TRY", "Yüz Bin Türk Lirası"],
    ["101000", "TRY", "Yüz Bir Bin Türk Lirası"],
    ["69000.00", "TRY", "Altmış Dokuz Bin Türk Lirası"],
    ["1000000", "TRY", "Bir Milyon Türk Lirası"],
    ["1001000", "TRY", "Bir Milyon Bin Türk Lirası"],
    ["2500000.75", "TRY", "İki Milyon Beş Yüz Bin Türk Lirası Yetmiş Beş Kuruş"],
    ["1000000000", "TRY", "Bir Milyar Türk Lirası"],
    ["987654321987.65", "TRY",
      "Dokuz Yüz Seksen Yedi Milyar Altı Yüz Elli Dört Milyon Üç Yüz Yirmi Bir Bin Dokuz Yüz Seksen Yedi Türk Lirası Altmış Beş Kuruş"],
    ["999999999999999999999.99", "TRY",
      "Dokuz Yüz Doksan Dokuz Kentilyon Dokuz Yüz Doksan Dokuz Katrilyon Dokuz Yüz Doksan Dokuz Trilyon Dokuz Yüz Doksan Dokuz Milyar " +
      "Dokuz Yüz Doksan Dokuz Milyon Dokuz Yüz Doksan Dokuz Bin Dokuz Yüz Doksan Dokuz Türk Lirası Doksan Dokuz Kuruş"],
    ["0012.5", "TRY", "On İki Türk Lirası Elli Kuruş"],
    [" 40.1 ", "TRY", "Kırk Türk Lirası On Kuruş"],
    ["-15.30", "TRY", "Eksi On Beş Türk Lirası Otuz Kuruş"],
    ["-0.00", "TRY", "Sıfır Türk Lirası"],
    ["1234.50", "EUR", "Bin İki Yüz Otuz Dört Avro Elli Sent"],
    ["1234.50", "USD", "Bin İki Yüz Otuz Dört ABD Doları Elli Sent"],
    ["1", "eur", "Bir Avro"],
    ["12.50", "GBP", "On İki Virgül Elli GBP"],
    ["12.05", "GBP", "On İki Virgül Sıfır Beş GBP"],
    ["7", "CHF", "Yedi CHF"],
  ])("%s %s → %s", (amount, currency, words) => {
    expect(amountInWordsTr(amount, currency)).toBe(words);
  });

  it.each([
    ["1.004", "Bir Türk Lirası"],
    ["1.005", "Bir Türk Lirası Bir Kuruş"],
    ["1.994", "Bir Türk Lirası Doksan Dokuz Kuruş"],
    ["1.995", "İki Türk Lirası"],
    ["999.999", "Bin Türk Lirası"],
    ["0.001", "Sıfır Türk Lirası"],
  ])("rounds %s half up to the kuruş exactly", (amount, words) => {
    expect(amountInWordsTr(amount, "TRY")).toBe(words);
  });

  it("is exact where a float is not (2^53 + 1 and its kuruş)", () => {
    expect(amountInWordsTr("9007199254740993.29", "TRY")).toBe(
      "Dokuz Katrilyon Yedi Trilyon Yüz Doksan Dokuz Milyar İki Yüz Elli Dört Milyon Yedi Yüz Kırk Bin Dokuz Yüz Doksan Üç Türk Lirası Yirmi Dokuz Kuruş",
    );
    expect(amountInWordsTr("0.30", "TRY")).toBe("Otuz Kuruş");
  });

  it.each(["", "abc", "1,50", "1.2.3", "1e3", "--1", ".5", "5.", "NaN", "Infinity"])("refuses %j", (amount) => {
    expect(() => amountInWordsTr(amount, "TRY")).toThrow(TypeError);
  });

  it("refuses amounts past the largest scale", () => {
    expect(() => amountInWordsTr("1000000000000000000000", "TRY")).toThrow(RangeError);
  });
});

describe("amountInWordsEn", () => {
  it.each([
    ["1234.50", "TRY", "One Thousand Two Hundred Thirty-Four Turkish Lira and Fifty Kuruş"],
    ["0", "TRY", "Zero Turkish Lira"],
    ["0.05", "TRY", "Five Kuruş"],
    ["1", "USD", "One US Dollar"],
    ["1.01", "EUR", "One Euro and One Cent"],
    ["2.99", "EUR", "Two Euros and Ninety-Nine Cents"],
    ["15", "TRY", "Fifteen Turkish Lira"],
    ["40", "TRY", "Forty Turkish Lira"],
    ["100", "USD", "One Hundred US Dollars"],
    ["1001000", "TRY", "One Million One Thousand Turkish Lira"],
    ["120000.00", "TRY", "One Hundred Twenty Thousand Turkish Lira"],
    ["15006.00", "TRY", "Fifteen Thousand Six Turkish Lira"],
    ["1.995", "TRY", "Two Turkish Lira"],
    ["-15.30", "USD", "Minus Fifteen US Dollars and Thirty Cents"],
    ["12.50", "GBP", "Twelve and 50/100 GBP"],
    ["12.05", "gbp", "Twelve and 05/100 GBP"],
    ["7", "CHF", "Seven CHF"],
    ["9007199254740993.29", "TRY",
      "Nine Quadrillion Seven Trillion One Hundred Ninety-Nine Billion Two Hundred Fifty-Four Million Seven Hundred Forty Thousand " +
      "Nine Hundred Ninety-Three Turkish Lira and Twenty-Nine Kuruş"],
  ])("%s %s → %s", (amount, currency, words) => {
    expect(amountInWordsEn(amount, currency)).toBe(words);
  });

  it("refuses what is not a decimal amount, and amounts past the largest scale", () => {
    expect(() => amountInWordsEn("1,50", "TRY")).toThrow(TypeError);
    expect(() => amountInWordsEn("1000000000000000000000", "TRY")).toThrow(RangeError);
  });

  it("is chosen by the document's language", () => {
    expect(amountInWords("1234.50", "TRY", "en")).toBe(amountInWordsEn("1234.50", "TRY"));
    expect(amountInWords("1234.50", "TRY", "tr")).toBe("Bin İki Yüz Otuz Dört Türk Lirası Elli Kuruş");
  });
});
