import { FunctionsFetchError, FunctionsHttpError, FunctionsRelayError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { organizationError } from "./organization-errors.ts";

describe("organizationError", () => {
  it("puts the creation refusals under their fields", () => {
    expect(organizationError(new RpcError("Organization slug is already in use", "slug_taken"))).toEqual({
      field: "slug",
      key: "organizationManager.errors.slugTaken",
    });
    expect(organizationError(new RpcError("Organization slug may contain only ...", "invalid_slug"))).toEqual({
      field: "slug",
      key: "organizationManager.errors.slugInvalid",
    });
    expect(organizationError(new RpcError("Organization name is required", "invalid_name"))).toEqual({
      field: "name",
      key: "organizationManager.errors.nameInvalid",
    });
    expect(organizationError(new RpcError("Invalid subscription plan", "invalid_plan"))).toEqual({
      field: "plan",
      key: "organizationManager.errors.planInvalid",
    });
  });

  it("maps refusals about the whole request to a form message", () => {
    expect(organizationError(new RpcError("Invalid organization change", "invalid_input"))).toEqual({
      key: "organizationManager.errors.invalidInput",
    });
    expect(organizationError(new RpcError("Invalid request", "invalid_request"))).toEqual({
      key: "organizationManager.errors.invalidInput",
    });
    expect(organizationError(new RpcError("Organization not found", "organization_not_found"))).toEqual({
      key: "organizationManager.errors.notFound",
    });
    expect(organizationError(new RpcError("Admin privileges required", "super_admin_required"))).toEqual({
      key: "organizationManager.errors.superAdminRequired",
    });
  });

  it("reports a lost connection and anything else without raw text", () => {
    expect(organizationError(new FunctionsFetchError(new TypeError("Failed to fetch")))).toEqual({
      key: "organizationManager.errors.network",
    });
    expect(organizationError(new FunctionsRelayError({}))).toEqual({ key: "organizationManager.errors.network" });
    expect(organizationError(new FunctionsHttpError(new Response("boom", { status: 500 })))).toEqual({
      key: "organizationManager.errors.unknown",
    });
    expect(organizationError(new RpcError("Organization creation failed", "server_error"))).toEqual({
      key: "organizationManager.errors.unknown",
    });
    expect(organizationError(new RpcError("No code", undefined))).toEqual({ key: "organizationManager.errors.unknown" });
    expect(organizationError(new Error("boom"))).toEqual({ key: "organizationManager.errors.unknown" });
  });
});
