/**
 * Names whose Turkish order is easy to get wrong (C before Ç, I/ı before İ/i, Ö after O,
 * Ş after S, Ü after U, lower- and uppercase mixed, a space before a letter), in that order.
 * The pgTAP file supabase/tests/07_module_engine/turkish_sort.sql checks the same order.
 */
export const turkishNamesInOrder: readonly string[] = [
  "3M Türkiye", "Ağa", "Ağaoğlu", "Ak Yapı", "Akçay", "Cansu", "cem", "Çamlıca", "Çelik", "ılık", "Işık", "ilik",
  "İzmir", "Oya", "Ödemiş", "ÖZGÜR", "Sarp", "Şahin", "Uğur", "Ümit", "Zeynep", "zeytin",
];

/** The same names in a fixed shuffled order (every other one from each end), so no test starts sorted. */
export function shuffledTurkishNames(): string[] {
  const names = [...turkishNamesInOrder];
  const shuffled: string[] = [];
  while (names.length > 0) {
    shuffled.push(names.pop() as string);
    if (names.length > 0) shuffled.push(names.shift() as string);
  }
  return shuffled;
}
