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
