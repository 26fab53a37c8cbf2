import { describe, expect, it } from "vitest";
import { changedFields, filterOrganizations, tablesStatus } from "./organizations.ts";

describe("filterOrganizations", () => {
  const organizations = [
    { name: "Demo Ticaret A.Ş.", slug: "demo" },
    { name: "Acme Sanayi Ltd.", slug: "acme" },
    { name: "İstanbul Gıda", slug: "ist-gida" },
  ];

  it("finds by name or slug, ignoring case and surrounding spaces", () => {
    expect(filterOrganizations(organizations, "  SANAYİ ").map((o) => o.slug)).toEqual(["acme"]);
    expect(filterOrganizations(organizations, "ist-").map((o) => o.slug)).toEqual(["ist-gida"]);
    expect(filterOrganizations(organizations, "istanbul").map((o) => o.slug)).toEqual(["ist-gida"]);
    expect(filterOrganizations(organizations, "yok")).toEqual([]);
  });

  it("keeps every organization for an empty search", () => {
    expect(filterOrganizations(organizations, " ")).toEqual(organizations);
  });
});

describe("tablesStatus", () => {
  const base = { template_version: 3, latest_template_version: 3, last_migration_error: null };

  it("tells current, behind and not provisioned tables apart", () => {
    expect(tablesStatus(base)).toEqual({ kind: "current", version: 3 });
    expect(tablesStatus({ ...base, template_version: 2 })).toEqual({ kind: "behind", version: 2, latest: 3 });
    expect(tablesStatus({ ...base, template_version: 0 })).toEqual({ kind: "notProvisioned" });
  });

  it("puts a failed migration first", () => {
    expect(tablesStatus({ ...base, template_version: 2, last_migration_error: "relation exists" })).toEqual({
      kind: "error",
      error: "relation exists",
    });
  });
});

describe("changedFields", () => {
  it("keeps only what changed", () => {
    expect(changedFields({ name: "A", plan: "basic", status: "active" }, { name: "B", plan: "basic", status: "trial" })).toEqual({
      name: "B",
      status: "trial",
    });
    expect(changedFields({ name: "A" }, { name: "A" })).toEqual({});
  });
});
