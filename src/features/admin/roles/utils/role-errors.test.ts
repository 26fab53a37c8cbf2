import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { newRoleSchema } from "../api/schemas.ts";
import { roleError } from "./role-errors.ts";

describe("roleError", () => {
  it("puts key and name refusals under their fields", () => {
    expect(roleError(new RpcError("Invalid role key", "invalid_role_key"))).toEqual({ key: "adminRoles.errors.invalid_role_key", field: "key" });
    expect(roleError(new RpcError("Invalid role name", "invalid_role_name"))).toEqual({
      key: "adminRoles.errors.invalid_role_name",
      field: "name",
    });
  });

  it("keeps the member count of a role still in use", () => {
    expect(roleError(new RpcError("The role still has members", "role_in_use", { member_count: 3 }))).toEqual({
      key: "adminRoles.errors.role_in_use",
      count: 3,
    });
  });

  it("maps the other refusals and anything unknown without raw text", () => {
    expect(roleError(new RpcError("The admin role cannot be changed", "system_role"))).toEqual({ key: "adminRoles.errors.system_role" });
    expect(roleError(new RpcError("Role not found", "role_not_found"))).toEqual({ key: "adminRoles.errors.role_not_found" });
    expect(roleError(new RpcError("Boom", "server_error"))).toEqual({ key: "adminRoles.errors.unknown" });
    expect(roleError(new TypeError("Failed to fetch"))).toEqual({ key: "adminRoles.errors.network" });
    expect(roleError(new Error("boom"))).toEqual({ key: "adminRoles.errors.unknown" });
  });
});

describe("newRoleSchema", () => {
  const schema = newRoleSchema(["admin", "user", "sales"]);
  const issues = (key: string, name = "Rol") => schema.safeParse({ key, name }).error?.issues.map((issue) => issue.message) ?? [];

  it("accepts a fresh key and trims", () => {
    expect(schema.parse({ key: " support_2 ", name: " Destek " })).toEqual({ key: "support_2", name: "Destek" });
  });

  it("refuses bad, reserved and taken keys and an empty name", () => {
    expect(issues("Support")).toContain("adminRoles.errors.invalid_role_key");
    expect(issues("2x")).toContain("adminRoles.errors.invalid_role_key");
    expect(issues("super_admin")).toContain("adminRoles.errors.invalid_role_key");
    expect(issues("sales")).toEqual(["adminRoles.errors.keyTaken"]);
    expect(issues("support", "  ")).toEqual(["adminRoles.errors.invalid_role_name"]);
  });
});
