import { FunctionsFetchError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { passwordChangeError, profileNameError } from "./profile-errors.ts";

describe("passwordChangeError", () => {
  it("puts a wrong current password under its field", () => {
    expect(passwordChangeError(new RpcError("Mevcut şifre hatalı", "invalid_credentials"))).toEqual({
      field: "currentPassword",
      key: "profile.password.errors.currentWrong",
    });
  });

  it.each([
    ["password_too_short", "Şifre en az 6 karakter olmalı", "passwordRules.tooShort"],
    ["password_too_long", "Şifre en fazla 72 bayt olabilir", "passwordRules.tooLong"],
    ["password_common", "Bu şifre çok yaygın; daha güçlü bir şifre seçin", "passwordRules.common"],
    ["password_same", "Yeni şifre mevcut şifreden farklı olmalı", "passwordRules.same"],
  ])("puts the refusal %s of the new password under its field", (code, text, key) => {
    expect(passwordChangeError(new RpcError(text, code))).toEqual({ field: "newPassword", key });
  });

  it("tells how long a lock lasts, above the form", () => {
    const locked = new RpcError("Account is locked for 30 minutes", "account_locked", { locked_minutes: 30 });
    expect(passwordChangeError(locked)).toEqual({ key: "profile.password.errors.locked", values: { minutes: 30 } });
  });

  it("reports a lost connection and anything else without raw text", () => {
    // supabase.rpc's answer when the request never reached the server.
    expect(passwordChangeError({ message: "TypeError: Failed to fetch", details: "", hint: "", code: "" })).toEqual({
      key: "profile.password.errors.network",
    });
    expect(passwordChangeError(new FunctionsFetchError(new TypeError("Failed to fetch")))).toEqual({
      key: "profile.password.errors.network",
    });
    for (const error of [
      new RpcError("Authentication required", "authentication_required"),
      new RpcError("Account is locked", "account_locked"),
      new RpcError("Request failed", undefined),
      new Error("boom"),
      "boom",
    ]) {
      expect(passwordChangeError(error)).toEqual({ key: "profile.password.errors.unknown" });
    }
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
