import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { templateError } from "./template-errors.ts";

describe("templateError", () => {
  it("puts field refusals under their field", () => {
    expect(templateError(new RpcError("x", "invalid_name"))).toEqual({ field: "name", key: "adminTemplates.errors.invalid_name" });
    expect(templateError(new RpcError("x", "body_too_long"))).toEqual({ field: "body", key: "adminTemplates.errors.body_too_long" });
  });

  it("maps other known codes to a message about the whole action", () => {
    expect(templateError(new RpcError("x", "template_not_found"))).toEqual({ key: "adminTemplates.errors.template_not_found" });
    expect(templateError(new RpcError("x", "admin_required"))).toEqual({ key: "adminTemplates.errors.admin_required" });
  });

  it("never passes a raw error through", () => {
    expect(templateError(new RpcError("boom", "something_new"))).toEqual({ key: "adminTemplates.errors.unknown" });
    expect(templateError(new TypeError("Failed to fetch"))).toEqual({ key: "adminTemplates.errors.network" });
    expect(templateError(new Error("raw"))).toEqual({ key: "adminTemplates.errors.unknown" });
  });
});
