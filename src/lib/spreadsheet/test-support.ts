/**
 * Realistic customer files for tests and the bench: Turkish names and cities, valid VKNs,
 * phones, e-mails, statuses, under the headers a Turkish Excel user writes.
 */
import { randomValidVkn } from "@/lib/turkish-identifiers.ts";

export const customerCsvHeaders = ["Firma Adı", "Vergi No", "Vergi Dairesi", "Şehir", "İlçe", "Telefon", "E-posta", "Durum", "Etiketler"];

const cities: [string, string][] = [
  ["İstanbul", "Kadıköy"],
  ["Ankara", "Çankaya"],
  ["İzmir", "Karşıyaka"],
  ["Bursa", "Nilüfer"],
  ["Eskişehir", "Odunpazarı"],
];
const names = ["Işık", "Çelik", "Öztürk", "Güneş", "Ağaoğlu", "Şahin", "Yıldız", "Doğan"];
const trades = ["Yazılım", "Gıda", "İnşaat", "Enerji", "Tekstil", "Lojistik"];

/** Repeatable numbers in [0, 1) from a seed (mulberry32: 32-bit integer steps, so no precision is lost). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** `rows` customers as a ";"-delimited CSV (no BOM; the caller adds one or encodes it otherwise), seeded so runs repeat. */
export function makeCustomerCsv(rows: number, seed = 20261123): string {
  const random = seededRandom(seed);
  const lines = [customerCsvHeaders.join(";")];
  for (let index = 1; index <= rows; index++) {
    const [city, district] = cities[index % cities.length];
    lines.push(
      [
        `${names[index % names.length]} ${trades[index % trades.length]} ${index} ${index % 2 ? "A.Ş." : "Ltd. Şti."}`,
        randomValidVkn(random),
        `${city} Vergi Dairesi`,
        city,
        district,
        `0532 ${String(index % 1000).padStart(3, "0")} ${String(index % 100).padStart(2, "0")} ${String(index % 97).padStart(2, "0")}`,
        `musteri${index}@ornek.com.tr`,
        ["Aday", "Aktif", "Pasif"][index % 3],
        index % 4 === 0 ? '"ihracat, öncelikli"' : "yerel",
      ].join(";"),
    );
  }
  return lines.join("\r\n");
}
