/**
 * An amount written out in Turkish words, as invoices and quotes print it ("yalnız ..."):
 * "1234.50" TRY → "Bin İki Yüz Otuz Dört Türk Lirası Elli Kuruş". Exact: the decimal string
 * is read digit by digit (never through a float), more than two decimals are rounded half up
 * to the kuruş. Turkish says "bin" and "yüz", never "bir bin" or "bir yüz".
 */

const ones = ["", "Bir", "İki", "Üç", "Dört", "Beş", "Altı", "Yedi", "Sekiz", "Dokuz"];
const tens = ["", "On", "Yirmi", "Otuz", "Kırk", "Elli", "Altmış", "Yetmiş", "Seksen", "Doksan"];
// 10^3k for k = 0.. : up to 10^21 - 1, far beyond any numeric(18, 2) total.
const scales = ["", "Bin", "Milyon", "Milyar", "Trilyon", "Katrilyon", "Kentilyon"];

/** The words of the currency's main unit and hundredth; unknown codes are written as the code. */
const currencyWords: Readonly<Record<string, { unit: string; cent: string }>> = {
  TRY: { unit: "Türk Lirası", cent: "Kuruş" },
  EUR: { unit: "Avro", cent: "Sent" },
  USD: { unit: "ABD Doları", cent: "Sent" },
};

const amountPattern = /^(-)?(\d+)(?:\.(\d+))?$/;

/** 0..999 in words ("" for 0). */
function hundredsInWords(value: number): string[] {
  const hundred = Math.floor(value / 100);
  const ten = Math.floor((value % 100) / 10);
  const one = value % 10;
  const words: string[] = [];
  if (hundred === 1) words.push("Yüz");
  else if (hundred > 1) words.push(ones[hundred], "Yüz");
  if (ten) words.push(tens[ten]);
  if (one) words.push(ones[one]);
  return words;
}

/** A whole number given as digits in words ("Sıfır" for zero). */
function integerInWords(digits: string): string {
  const trimmed = digits.replace(/^0+/, "");
  if (!trimmed) return "Sıfır";
  const groupCount = Math.ceil(trimmed.length / 3);
  if (groupCount > scales.length) throw new RangeError(`Amount too large to write in words: ${digits}`);
  const padded = trimmed.padStart(groupCount * 3, "0");
  const words: string[] = [];
  for (let index = 0; index < groupCount; index++) {
    const group = Number(padded.slice(index * 3, index * 3 + 3));
    const scale = scales[groupCount - 1 - index];
    if (!group) continue;
    // "Bin", not "Bir Bin"; but "Bir Milyon".
    if (!(group === 1 && scale === "Bin")) words.push(...hundredsInWords(group));
    if (scale) words.push(scale);
  }
  return words.join(" ");
}

/** Whole units and hundredths of a decimal string, rounded half up to two decimals. */
function splitAmount(whole: string, fraction: string): { whole: string; cents: number } {
  const cents = Number((fraction + "00").slice(0, 2));
  if (Number(fraction.charAt(2) || "0") < 5) return { whole, cents };
  if (cents < 99) return { whole, cents: cents + 1 };
  return { whole: (BigInt(whole) + 1n).toString(), cents: 0 };
}

/**
 * `amount` as Turkish words with its currency: "1234.50", "TRY" → "Bin İki Yüz Otuz Dört
 * Türk Lirası Elli Kuruş"; EUR in Avro and Sent, USD in ABD Doları and Sent; another code is
 * written as the code with the two decimals after "Virgül" ("12.50", "GBP" → "On İki Virgül
 * Elli GBP"). Zero hundredths are left out; a negative amount starts with "Eksi". Throws a
 * TypeError for text that is not a decimal number.
 */
export function amountInWordsTr(amount: string, currency: string): string {
  const match = amountPattern.exec(amount.trim());
  if (!match) throw new TypeError(`Not a decimal amount: ${amount}`);
  const [, minus, wholeDigits, fractionDigits = ""] = match;
  const { whole, cents } = splitAmount(wholeDigits, fractionDigits);
  const code = currency.trim().toUpperCase();
  const names = currencyWords[code];
  const isZero = /^0*$/.test(whole) && cents === 0;
  const sign = minus && !isZero ? "Eksi " : "";

  if (!names) {
    // The two decimals read as a number, a leading zero said: ",05" is "Virgül Sıfır Beş".
    const fraction = cents ? ` Virgül ${cents < 10 ? "Sıfır " : ""}${integerInWords(String(cents))}` : "";
    return `${sign}${integerInWords(whole)}${fraction} ${code}`;
  }
  const parts: string[] = [];
  if (!/^0*$/.test(whole) || cents === 0) parts.push(`${integerInWords(whole)} ${names.unit}`);
  if (cents) parts.push(`${integerInWords(String(cents))} ${names.cent}`);
  return sign + parts.join(" ");
}

const englishOnes = ["", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve", "Thirteen",
  "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen"];
const englishTens = ["", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"];
const englishScales = ["", "Thousand", "Million", "Billion", "Trillion", "Quadrillion", "Quintillion"];

/** The English words of the main unit and hundredth, singular and plural; unknown codes are written as the code. */
const englishCurrencyWords: Readonly<Record<string, { unit: [string, string]; cent: [string, string] }>> = {
  TRY: { unit: ["Turkish Lira", "Turkish Lira"], cent: ["Kuruş", "Kuruş"] },
  EUR: { unit: ["Euro", "Euros"], cent: ["Cent", "Cents"] },
  USD: { unit: ["US Dollar", "US Dollars"], cent: ["Cent", "Cents"] },
};

/** 0..999 in English words ("" for 0): "One Hundred Twenty-Three". */
function englishHundreds(value: number): string[] {
  const hundred = Math.floor(value / 100);
  const rest = value % 100;
  const words: string[] = [];
  if (hundred) words.push(englishOnes[hundred], "Hundred");
  if (rest >= 20) words.push(rest % 10 ? `${englishTens[Math.floor(rest / 10)]}-${englishOnes[rest % 10]}` : englishTens[rest / 10]);
  else if (rest) words.push(englishOnes[rest]);
  return words;
}

/** A whole number given as digits in English words ("Zero" for zero). */
function englishInteger(digits: string): string {
  const trimmed = digits.replace(/^0+/, "");
  if (!trimmed) return "Zero";
  const groupCount = Math.ceil(trimmed.length / 3);
  if (groupCount > englishScales.length) throw new RangeError(`Amount too large to write in words: ${digits}`);
  const padded = trimmed.padStart(groupCount * 3, "0");
  const words: string[] = [];
  for (let index = 0; index < groupCount; index++) {
    const group = Number(padded.slice(index * 3, index * 3 + 3));
    const scale = englishScales[groupCount - 1 - index];
    if (!group) continue;
    words.push(...englishHundreds(group));
    if (scale) words.push(scale);
  }
  return words.join(" ");
}

/**
 * `amount` as English words with its currency, read as amountInWordsTr reads it (exact,
 * half up to two decimals): "1234.50", "TRY" → "One Thousand Two Hundred Thirty-Four
 * Turkish Lira and Fifty Kuruş"; EUR in Euros and Cents, USD in US Dollars and Cents
 * (singular for one); another code after the number, its hundredths as a fraction ("12.50",
 * "GBP" → "Twelve and 50/100 GBP"). A negative amount starts with "Minus". Throws a
 * TypeError for text that is not a decimal number.
 */
export function amountInWordsEn(amount: string, currency: string): string {
  const match = amountPattern.exec(amount.trim());
  if (!match) throw new TypeError(`Not a decimal amount: ${amount}`);
  const [, minus, wholeDigits, fractionDigits = ""] = match;
  const { whole, cents } = splitAmount(wholeDigits, fractionDigits);
  const code = currency.trim().toUpperCase();
  const names = englishCurrencyWords[code];
  const wholeIsZero = /^0*$/.test(whole);
  const sign = minus && !(wholeIsZero && cents === 0) ? "Minus " : "";

  if (!names) {
    const fraction = cents ? ` and ${String(cents).padStart(2, "0")}/100` : "";
    return `${sign}${englishInteger(whole)}${fraction} ${code}`;
  }
  const isOne = /^0*1$/.test(whole);
  const parts: string[] = [];
  if (!wholeIsZero || cents === 0) parts.push(`${englishInteger(whole)} ${names.unit[isOne ? 0 : 1]}`);
  if (cents) parts.push(`${englishInteger(String(cents))} ${names.cent[cents === 1 ? 0 : 1]}`);
  return sign + parts.join(" and ");
}

/** `amount` in words in a document's language: Turkish (amountInWordsTr) or English (amountInWordsEn). */
export function amountInWords(amount: string, currency: string, language: "tr" | "en"): string {
  return language === "en" ? amountInWordsEn(amount, currency) : amountInWordsTr(amount, currency);
}
