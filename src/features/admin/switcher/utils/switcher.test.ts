import { describe, expect, it } from "vitest";
import { switchChoices } from "./switcher.ts";

describe("switchChoices", () => {
  const organizations = [
    { id: "1", name: "Zeta Yapı", slug: "zeta", is_active: true },
    { id: "2", name: "Acme Sanayi Ltd.", slug: "acme", is_active: true },
    { id: "3", name: "Demo Ticaret A.Ş.", slug: "demo", is_active: true },
    { id: "4", name: "Kapalı Şirket", slug: "kapali", is_active: false },
  ];

  it("offers active organizations only, the current one first, the rest by name", () => {
    expect(switchChoices(organizations, "", "3").map((o) => o.slug)).toEqual(["demo", "acme", "zeta"]);
    expect(switchChoices(organizations, "", undefined).map((o) => o.slug)).toEqual(["acme", "demo", "zeta"]);
  });

  it("searches by name or slug", () => {
    expect(switchChoices(organizations, "SANAYİ", "3").map((o) => o.slug)).toEqual(["acme"]);
    expect(switchChoices(organizations, "kapali", "3")).toEqual([]);
  });
});
