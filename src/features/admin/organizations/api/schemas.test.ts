import { describe, expect, it } from "vitest";
import { createOrganizationSchema, editOrganizationSchema } from "./schemas.ts";

describe("createOrganizationSchema", () => {
  it("trims and accepts a valid organization", () => {
    expect(createOrganizationSchema.parse({ slug: " yeni-sirket ", name: " Yeni Şirket ", plan: "basic" })).toEqual({
      slug: "yeni-sirket",
      name: "Yeni Şirket",
      plan: "basic",
      addAdmin: false,
      adminEmail: "",
      adminPassword: "",
      adminFirstName: "",
      adminLastName: "",
    });
  });

  it("checks the first admin only when one is to be added", () => {
    const organization = { slug: "yeni", name: "Yeni", plan: "basic" };
    const admin = { adminEmail: "yok", adminPassword: "123", adminFirstName: "", adminLastName: "x".repeat(101) };
    expect(createOrganizationSchema.safeParse({ ...organization, addAdmin: false, ...admin }).success).toBe(true);
    const result = createOrganizationSchema.safeParse({ ...organization, addAdmin: true, ...admin });
    expect(result.success).toBe(false);
    expect(Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join("."), issue.message]))).toEqual({
      adminEmail: "adminUsers.errors.invalid_email",
      adminPassword: "passwordRules.tooShort",
      adminLastName: "adminUsers.errors.name_too_long",
    });
    expect(createOrganizationSchema.safeParse({ ...organization, addAdmin: true, adminEmail: "ilk@yeni.test", adminPassword: "Gizli.1234" }).success).toBe(true);
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
