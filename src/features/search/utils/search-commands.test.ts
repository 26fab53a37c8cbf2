import { describe, expect, it } from "vitest";
import { commandMatches, foldSearch } from "./search-commands.ts";

describe("foldSearch", () => {
  it("folds Turkish letters and case as private.fold_search does", () => {
    expect(foldSearch("IŞIK")).toBe("isik");
    expect(foldSearch("Işık")).toBe("isik");
    expect(foldSearch("İĞNE Çürük Öğün")).toBe("igne curuk ogun");
  });
});

describe("commandMatches", () => {
  it("offers every command without a query, and those whose label holds the folded query", () => {
    expect(commandMatches("Yeni müşteri", "")).toBe(true);
    expect(commandMatches("Yeni müşteri", "musteri")).toBe(true);
    expect(commandMatches("Yeni müşteri", "  YENİ ")).toBe(true);
    expect(commandMatches("Yeni fırsat", "musteri")).toBe(false);
  });
});
