import { describe, expect, it } from "vitest";
import { fitsPasswordBytes, MAX_PASSWORD_BYTES, passwordRefusalKey } from "./password-rules.ts";
import { RpcError } from "./rpc.ts";

describe("fitsPasswordBytes", () => {
  it("counts UTF-8 bytes, not characters, up to bcrypt's 72", () => {
    expect(fitsPasswordBytes("a".repeat(MAX_PASSWORD_BYTES))).toBe(true);
    expect(fitsPasswordBytes("a".repeat(MAX_PASSWORD_BYTES + 1))).toBe(false);
    // 36 characters of two bytes each fit; 37 do not.
    expect(fitsPasswordBytes("ş".repeat(36))).toBe(true);
    expect(fitsPasswordBytes("ş".repeat(37))).toBe(false);
  });
});

describe("passwordRefusalKey", () => {
  it.each([
    ["password_too_short", "passwordRules.tooShort"],
    ["password_too_long", "passwordRules.tooLong"],
    ["password_common", "passwordRules.common"],
    ["password_same", "passwordRules.same"],
  ])("maps the database's refusal %s", (code, key) => {
    expect(passwordRefusalKey(new RpcError("refused", code))).toBe(key);
  });

  it("leaves every other error to the caller", () => {
    expect(passwordRefusalKey(new RpcError("Mevcut şifre hatalı", "invalid_credentials"))).toBeUndefined();
    expect(passwordRefusalKey(new RpcError("refused", undefined))).toBeUndefined();
    expect(passwordRefusalKey(new RpcError("refused", "constructor"))).toBeUndefined();
    expect(passwordRefusalKey(new Error("password_common"))).toBeUndefined();
  });
});
