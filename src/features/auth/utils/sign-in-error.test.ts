import { AuthApiError, AuthRetryableFetchError, AuthUnknownError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { RpcError } from "../../../lib/rpc.ts";
import { signInErrorMessage } from "./sign-in-error.ts";

describe("signInErrorMessage", () => {
  it("recognises wrong credentials from Auth by their error code", () => {
    const error = new AuthApiError("Invalid login credentials", 400, "invalid_credentials");
    expect(signInErrorMessage(error)).toEqual({ key: "auth.errors.invalidCredentials" });
  });

  it("recognises rate limiting", () => {
    const error = new AuthApiError("Request rate limit reached", 429, "over_request_rate_limit");
    expect(signInErrorMessage(error)).toEqual({ key: "auth.errors.rateLimited" });
  });

  it("recognises an unreachable server", () => {
    expect(signInErrorMessage(new AuthRetryableFetchError("Failed to fetch", 0))).toEqual({ key: "auth.errors.network" });
  });

  it("passes the lock's minutes on", () => {
    const error = new RpcError("Account is locked for 17 minutes", "account_locked", { locked_minutes: 17 });
    expect(signInErrorMessage(error)).toEqual({ key: "auth.errors.accountLocked", values: { minutes: 17 } });
  });

  it.each([
    ["invalid_credentials", "auth.errors.invalidCredentials"],
    ["admin_locked", "auth.errors.adminLocked"],
    ["no_organization", "auth.errors.noOrganization"],
    ["account_disabled", "auth.errors.accountDisabled"],
  ])("maps the database's refusal %s", (code, key) => {
    expect(signInErrorMessage(new RpcError("refused", code))).toEqual({ key });
  });

  it.each([
    ["a lock without minutes", new RpcError("Account is locked", "account_locked")],
    ["an unknown refusal", new RpcError("Something", "something_else")],
    ["another API error", new AuthApiError("Email not confirmed", 400, "email_not_confirmed")],
    ["an unknown auth error", new AuthUnknownError("boom", new Error("boom"))],
    ["a plain error", new Error("boom")],
    ["a non-error value", "boom"],
  ])("falls back to a generic message for %s", (_, error) => {
    expect(signInErrorMessage(error)).toEqual({ key: "auth.errors.unknown" });
  });
});
