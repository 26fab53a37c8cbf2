import { describe, expect, it } from "vitest";
import { isAdmin, isSuperAdmin } from "./access.ts";

const demo = "0a000000-0000-4000-8000-000000000001";
const acme = "0a000000-0000-4000-8000-000000000002";

describe("isAdmin", () => {
  it.each(["admin", "super_admin"])("accepts the global role %s in any organization", (role) => {
    expect(isAdmin({ role, organization_role: {} }, demo)).toBe(true);
    expect(isAdmin({ role }, null)).toBe(true);
  });

  it("accepts the admin role in the current organization", () => {
    expect(isAdmin({ role: "user", organization_role: { [demo]: "admin" } }, demo)).toBe(true);
  });

  it("refuses the admin role of another organization", () => {
    expect(isAdmin({ role: "user", organization_role: { [acme]: "admin" } }, demo)).toBe(false);
  });

  it("refuses ordinary roles and a session without an organization", () => {
    expect(isAdmin({ role: "user", organization_role: { [demo]: "sales" } }, demo)).toBe(false);
    expect(isAdmin({ role: "user", organization_role: { [demo]: "admin" } }, null)).toBe(false);
    expect(isAdmin({ role: "user", organization_role: null }, demo)).toBe(false);
  });
});

describe("isSuperAdmin", () => {
  it("is the super_admin role only", () => {
    expect(isSuperAdmin({ role: "super_admin" })).toBe(true);
    expect(isSuperAdmin({ role: "admin" })).toBe(false);
    // An organization role never makes a super admin.
    expect(isSuperAdmin({ role: "user", organization_role: { [demo]: "super_admin" } })).toBe(false);
  });
});
