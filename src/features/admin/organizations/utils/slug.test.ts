import { describe, expect, it } from "vitest";
import { isSlugTaken, normalizeSlug, slugFromName, slugProblem } from "./slug.ts";

describe("slugProblem", () => {
  it("allows letters, digits, underscore and hyphen up to 30 characters", () => {
    for (const slug of ["demo", "Acme-2", "yeni_sirket", "a", "x".repeat(30), "_lead", "org-1_b"]) {
      expect(slugProblem(slug), slug).toBeUndefined();
    }
  });

  it("requires a slug", () => {
    expect(slugProblem("")).toBe("required");
  });

  it("refuses other characters, spaces and Turkish letters included", () => {
    for (const slug of ["yeni şirket", "şirket", "a.b", "a/b", "a;b", "a b", "drop;--"]) {
      expect(slugProblem(slug), slug).toBe("characters");
    }
  });

  it("refuses more than 30 characters", () => {
    expect(slugProblem("x".repeat(31))).toBe("tooLong");
  });

  it("refuses SQL words as words, in any case and after a hyphen, but not inside other words", () => {
    for (const slug of ["drop", "DROP", "my-select", "delete_me", "pg", "x-Schema-y", "information"]) {
      expect(slugProblem(slug), slug).toBe("reservedWord");
    }
    for (const slug of ["dropbox", "selection", "updates", "pgsql", "schemas"]) {
      expect(slugProblem(slug), slug).toBeUndefined();
    }
  });
});

describe("isSlugTaken", () => {
  it("compares as the database does: case and hyphen versus underscore do not matter", () => {
    expect(normalizeSlug("Acme-Two")).toBe("acme_two");
    expect(isSlugTaken("DEMO", ["demo", "acme"])).toBe(true);
    expect(isSlugTaken("acme_two", ["Acme-Two"])).toBe(true);
    expect(isSlugTaken("demo2", ["demo", "acme"])).toBe(false);
  });
});

describe("slugFromName", () => {
  // The same cases as supabase/tests/organizations/slug_from_name.sql (private.slug_from_name).
  const cases: [string, string][] = [
    ["Işık Yazılım", "isik-yazilim"],
    ["İstanbul Çiğ Köfte Ürünleri", "istanbul-cig-kofte-urunleri"],
    ["ŞEKER GÜBRE ÖZ", "seker-gubre-oz"],
    ["Demo Ticaret A.Ş.", "demo-ticaret"],
    ["Acme Sanayi Ltd. Şti.", "acme-sanayi"],
    ["Acme Sanayi ve Ticaret Ltd.", "acme-sanayi-ve-ticaret"],
    ["Kâğıt & Baskı (Bursa) 2", "kagit-baski-bursa-2"],
    ["Café Zoë GmbH", "cafe-zoe"],
    ["  --Ağaç__İşleri--  ", "agac-isleri"],
    ["Çok Uzun Bir Şirket Adı Olan Örnek Holding", "cok-uzun-bir-sirket-adi-olan-o"],
    ["A.Ş.", "a-s"],
    ["Ω東京", ""],
  ];
  it("folds Turkish and other accented letters, joins words with hyphens, drops a company form, keeps 30 characters", () => {
    for (const [name, slug] of cases) expect(slugFromName(name), name).toBe(slug);
  });

  it("gives slugs the rule allows, or one the form then asks to edit", () => {
    for (const [name, slug] of cases) {
      if (slug !== "") expect(slugProblem(slug), name).toBeUndefined();
    }
    expect(slugProblem(slugFromName("Drop Yazılım"))).toBe("reservedWord");
    expect(slugProblem(slugFromName("Ω"))).toBe("required");
  });
});
