import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { organizationRoleLabel } from "./organization-roles.ts";

const t = ((key: string) => `<${key}>`) as unknown as TFunction;

describe("organizationRoleLabel", () => {
  it.each(["admin", "manager", "sales", "user", "viewer"])("translates the known role %s", (role) => {
    expect(organizationRoleLabel(t, role)).toBe(`<organizations.roles.${role}>`);
  });

  it("shows a role the app does not know as stored", () => {
    expect(organizationRoleLabel(t, "bölge_müdürü")).toBe("bölge_müdürü");
  });
});
