import { describe, expect, it } from "vitest";
import {
  isFixedRole,
  isRemovableRole,
  matrixFromPermissions,
  permissionsFromMatrix,
  sameMatrix,
  uniformMatrix,
  withCell,
} from "./matrix.ts";

const modules = ["customers", "deals"];
const actions = ["view", "create", "delete"];

describe("permission matrix", () => {
  it("fills every module and action, a missing or unknown scope being none", () => {
    expect(matrixFromPermissions(modules, actions, { customers: { view: "all", create: "own" }, tasks: { view: "all" } })).toEqual({
      customers: { view: "all", create: "own", delete: "none" },
      deals: { view: "none", create: "none", delete: "none" },
    });
  });

  it("sends only the allowed cells and leaves modules with none out", () => {
    const matrix = withCell(uniformMatrix(modules, actions, "none"), "deals", "view", "all");
    expect(permissionsFromMatrix(matrix)).toEqual({ deals: { view: "all" } });
    expect(permissionsFromMatrix(uniformMatrix(modules, actions, "none"))).toEqual({});
  });

  it("round-trips a role's permissions", () => {
    const permissions = { customers: { view: "all" as const, delete: "own" as const }, deals: { create: "own" as const } };
    expect(permissionsFromMatrix(matrixFromPermissions(modules, actions, permissions))).toEqual(permissions);
  });

  it("changes one cell without touching the original", () => {
    const before = uniformMatrix(modules, actions, "own");
    const after = withCell(before, "customers", "delete", "none");
    expect(before.customers?.delete).toBe("own");
    expect(after.customers?.delete).toBe("none");
    expect(sameMatrix(before, after)).toBe(false);
    expect(sameMatrix(before, withCell(after, "customers", "delete", "own"))).toBe(true);
  });

  it("knows which roles are fixed or kept", () => {
    expect(isFixedRole("admin")).toBe(true);
    expect(isFixedRole("user")).toBe(false);
    expect(isRemovableRole("admin")).toBe(false);
    expect(isRemovableRole("user")).toBe(false);
    expect(isRemovableRole("sales")).toBe(true);
  });
});
