import { FunctionsFetchError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { resetTokenFrom } from "./reset-token.ts";
import { passwordResetError } from "./password-reset-error.ts";

describe("passwordResetError", () => {
  it("words the link's and the function's own refusals", () => {
    expect(passwordResetError(new RpcError("This link is invalid or has expired", "reset_link_invalid"), "complete"))
      .toEqual({ key: "auth.reset.errors.linkInvalid" });
    expect(passwordResetError(new RpcError("Password reset is not available", "password_reset_unavailable"), "request"))
      .toEqual({ key: "auth.reset.errors.unavailable" });
  });

  it("puts the password rules under the field", () => {
    expect(passwordResetError(new RpcError("Bu şifre çok yaygın", "password_common"), "complete"))
      .toEqual({ field: "password", key: "passwordRules.common" });
  });

  it("tells a throttled request the minutes, and a locked account its lock, as the login form does", () => {
    const throttled = new RpcError("Too many password reset requests.", "too_many_attempts", { retry_after_seconds: 61 });
    expect(passwordResetError(throttled, "request")).toEqual({ key: "auth.reset.errors.tooManyRequests", values: { count: 2 } });
    expect(passwordResetError(throttled, "complete")).toEqual({ key: "auth.errors.tooManyAttempts", values: { count: 2 } });
    expect(passwordResetError(new RpcError("Account is locked by administrator", "admin_locked"), "complete"))
      .toEqual({ key: "auth.errors.adminLocked" });
    expect(passwordResetError(new RpcError("Account is locked for 20 minutes", "account_locked", { locked_minutes: 20 }), "complete"))
      .toEqual({ key: "auth.errors.accountLocked", values: { count: 20 } });
  });

  it("never shows a raw error", () => {
    expect(passwordResetError(new FunctionsFetchError("offline"), "request")).toEqual({ key: "auth.errors.network" });
    expect(passwordResetError(new Error("relation does not exist"), "request")).toEqual({ key: "auth.errors.unknown" });
    expect(passwordResetError(new RpcError("?", "something_new"), "complete")).toEqual({ key: "auth.errors.unknown" });
  });
});

describe("resetTokenFrom", () => {
  it("reads the token from the link's fragment, and nothing else", () => {
    expect(resetTokenFrom("#token=tOkEn_0123456789-abcdefghijABCDEFGHIJ012345")).toBe("tOkEn_0123456789-abcdefghijABCDEFGHIJ012345");
    expect(resetTokenFrom("")).toBeNull();
    expect(resetTokenFrom("#token=short")).toBeNull();
    expect(resetTokenFrom("#token=<script>alert(1)</script>aaaaaaaaaaaaaaaaaaaa")).toBeNull();
  });
});
