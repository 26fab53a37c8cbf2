import { describe, expect, it } from "vitest";
import { shuffledTurkishNames, turkishNamesInOrder } from "../../tests/support/turkish-names.ts";
import { compareTurkish } from "./turkish-sort.ts";

describe("compareTurkish", () => {
  it("sorts names in Turkish alphabetical order, as the database does", () => {
    expect(shuffledTurkishNames().sort(compareTurkish)).toEqual(turkishNamesInOrder);
  });

  it("does not count case, the Turkish way, nor a circumflex", () => {
    expect(compareTurkish("IŞIK", "ışık")).toBe(0);
    expect(compareTurkish("İZMİR", "izmir")).toBe(0);
    expect(compareTurkish("Kâzım", "Kazım")).toBe(0);
    expect(compareTurkish("Işık", "İnci")).toBeLessThan(0);
  });
});
