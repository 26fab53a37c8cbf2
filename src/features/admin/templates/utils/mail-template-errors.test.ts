import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { mailTemplateError } from "./mail-template-errors.ts";

describe("mailTemplateError", () => {
  it("puts field refusals under their field and others about the whole action", () => {
    expect(mailTemplateError(new RpcError("x", "invalid_subject"))).toEqual({ field: "subject", key: "adminTemplates.mail.errors.invalid_subject" });
    expect(mailTemplateError(new RpcError("x", "invalid_body"))).toEqual({ field: "body", key: "adminTemplates.mail.errors.invalid_body" });
    expect(mailTemplateError(new RpcError("x", "admin_required"))).toEqual({ key: "adminTemplates.mail.errors.admin_required" });
  });

  it("never passes a raw error through", () => {
    expect(mailTemplateError(new RpcError("boom", "something_new"))).toEqual({ key: "adminTemplates.mail.errors.unknown" });
    expect(mailTemplateError(new TypeError("Failed to fetch"))).toEqual({ key: "adminTemplates.mail.errors.network" });
  });
});
