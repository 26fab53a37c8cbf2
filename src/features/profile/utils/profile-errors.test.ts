import { AuthApiError, AuthRetryableFetchError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { RpcError } from "../../../lib/rpc.ts";
import { passwordChangeError, profileNameError } from "./profile-errors.ts";

describe("passwordChangeError", () => {
  it("puts a wrong current password under its field", () => {
    expect(passwordChangeError(new RpcError("Invalid login credentials", "invalid_credentials"))).toEqual({
      field: "currentPassword",
      key: "profile.password.errors.currentWrong",
    });
  });

  it("tells how long a lock lasts", () => {
    const locked = new RpcError("Account is locked for 30 minutes", "account_locked", { locked_minutes: 30 });
    expect(passwordChangeError(locked)).toEqual({ key: "profile.password.errors.locked", values: { minutes: 30 } });
  });

  it("maps Auth's refusals of the new password", () => {
    expect(passwordChangeError(new AuthApiError("New password should be different", 422, "same_password"))).toEqual({
      field: "newPassword",
      key: "profile.password.errors.samePassword",
    });
    expect(passwordChangeError(new AuthApiError("Password is too weak", 422, "weak_password"))).toMatchObject({
      key: "profile.password.errors.weak",
    });
  });

  it("reports a lost connection and anything else without raw text", () => {
    expect(passwordChangeError(new AuthRetryableFetchError("Failed to fetch", 0))).toEqual({
      key: "profile.password.errors.network",
    });
    expect(passwordChangeError(new RpcError("Admin privileges required", "admin_required"))).toEqual({
      key: "profile.password.errors.unknown",
    });
    expect(passwordChangeError(new Error("boom"))).toEqual({ key: "profile.password.errors.unknown" });
  });
});

describe("profileNameError", () => {
  it("maps the RPC's codes", () => {
    expect(profileNameError(new RpcError("Ad gerekli", "first_name_required"))).toBe("profile.name.errors.firstNameRequired");
    expect(profileNameError(new RpcError("Ad ve soyad en fazla 100 karakter olabilir", "name_too_long"))).toBe(
      "profile.name.errors.tooLong",
    );
    expect(profileNameError(new Error("network"))).toBe("profile.name.errors.unknown");
  });
});
