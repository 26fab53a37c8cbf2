import { describe, expect, it } from "vitest";
import { compareTurkish } from "../turkish-sort.ts";
import { districtNames, findProvince, foldPlaceName, loadProvinces, matchesPlaceSearch, placeOptions } from "./index.ts";

describe("Türkiye's provinces and districts", () => {
  it("ships the 81 provinces with their 973 districts, each list in Turkish order", async () => {
    const provinces = await loadProvinces();
    expect(provinces).toHaveLength(81);
    expect(new Set(provinces.map((province) => province.code)).size).toBe(81);
    expect(provinces.reduce((count, province) => count + province.districts.length, 0)).toBe(973);
    const names = provinces.map((province) => province.name);
    expect([...names].sort(compareTurkish)).toEqual(names);
    for (const province of provinces) expect([...province.districts].sort(compareTurkish), province.name).toEqual(province.districts);
    expect(names.slice(0, 3)).toEqual(["Adana", "Adıyaman", "Afyonkarahisar"]);
    expect(findProvince(provinces, "Bursa")?.districts).toEqual(expect.arrayContaining(["Nilüfer", "Osmangazi", "Yıldırım", "İnegöl"]));
    expect(findProvince(provinces, "Bursa")?.code).toBe("16");
    expect(findProvince(provinces, "İstanbul")?.districts).toHaveLength(39);
  });

  it("finds a province however it was typed, and its districts", async () => {
    const provinces = await loadProvinces();
    for (const typed of ["izmir", "İZMİR", " İzmir ", "IZMIR"]) expect(findProvince(provinces, typed)?.name, typed).toBe("İzmir");
    expect(findProvince(provinces, "Istanbul")?.name).toBe("İstanbul");
    expect(findProvince(provinces, "Çanakkale")?.name).toBe("Çanakkale");
    expect(findProvince(provinces, "canakkale")?.name).toBe("Çanakkale");
    expect(findProvince(provinces, "Atlantis")).toBeUndefined();
    expect(districtNames(provinces, "Atlantis")).toEqual([]);
    expect(districtNames(provinces, "")).toEqual([]);
    expect(districtNames(provinces, "ankara")).toContain("Çankaya");
  });

  it("keeps a value that is not in the list as a choice of its own, first", () => {
    expect(placeOptions(["Adana", "Bursa"], "Bursa")).toEqual([
      { value: "Adana", label: "Adana" },
      { value: "Bursa", label: "Bursa" },
    ]);
    expect(placeOptions(["Adana", "Bursa"], "Merkez Köy")[0]).toEqual({ value: "Merkez Köy", label: "Merkez Köy", unlisted: true });
    expect(placeOptions(["Adana"], "  ")).toHaveLength(1);
    expect(placeOptions(["Adana"], null)).toHaveLength(1);
  });

  it("searches folded: i, ı, İ and the marks do not matter", () => {
    expect(foldPlaceName("  İSTANBUL  ")).toBe("istanbul");
    expect(foldPlaceName("Şanlıurfa")).toBe("sanliurfa");
    expect(matchesPlaceSearch("İstanbul", "ist")).toBe(true);
    expect(matchesPlaceSearch("Şanlıurfa", "urfa")).toBe(true);
    expect(matchesPlaceSearch("Muğla", "mugla")).toBe(true);
    expect(matchesPlaceSearch("Iğdır", "igdir")).toBe(true);
    expect(matchesPlaceSearch("Adana", "bur")).toBe(false);
    expect(matchesPlaceSearch("Adana", "")).toBe(true);
  });
});
