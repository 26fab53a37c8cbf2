/**
 * Turkish alphabetical order for lists sorted in the browser, the order the database sorts
 * by (private.turkish_sort_key): A B C Ç D E F G Ğ H I İ J K L M N O Ö P R S Ş T U Ü V Y Z,
 * case not counting the Turkish way (I/ı before İ/i), â and the like as their base letter.
 */
const turkishCollator = new Intl.Collator("tr", { sensitivity: "base" });

/** Compares two names in Turkish alphabetical order (negative, zero or positive, for Array.prototype.sort). */
export function compareTurkish(a: string, b: string): number {
  return turkishCollator.compare(a, b);
}
