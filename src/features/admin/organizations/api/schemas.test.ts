import { describe, expect, it } from "vitest";
import { createOrganizationSchema, editOrganizationSchema } from "./schemas.ts";

describe("createOrganizationSchema", () => {
  it("trims and accepts a valid organization", () => {
    expect(createOrganizationSchema.parse({ slug: " yeni-sirket ", name: " Yeni Şirket ", plan: "basic" })).toEqual({
      slug: "yeni-sirket",
      name: "Yeni Şirket",
      plan: "basic",
    });
  });

  it("gives catalogue keys for each broken rule", () => {
    const result = createOrganizationSchema.safeParse({ slug: "drop", name: " ", plan: "gold" });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join("."), issue.message]));
    expect(messages).toEqual({
      slug: "organizationManager.slugRules.reservedWord",
      name: "organizationManager.errors.nameRequired",
      plan: "organizationManager.errors.planRequired",
    });
  });
});

describe("editOrganizationSchema", () => {
  it("keeps a plan the form does not list, but only a well-formed one", () => {
    expect(editOrganizationSchema.safeParse({ name: "A", plan: "legacy_2020", status: "trial" }).success).toBe(true);
    expect(editOrganizationSchema.safeParse({ name: "A", plan: "Gold Plan", status: "trial" }).success).toBe(false);
    expect(editOrganizationSchema.safeParse({ name: "A", plan: "basic", status: "paused" }).success).toBe(false);
  });
});
