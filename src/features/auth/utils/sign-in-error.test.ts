import { AuthApiError, AuthRetryableFetchError, AuthUnknownError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { SignInError } from "../api/sign-in-flow.ts";
import { signInErrorMessage } from "./sign-in-error.ts";

describe("signInErrorMessage", () => {
  it("recognises wrong credentials from Auth by their error code", () => {
    const error = new AuthApiError("Invalid login credentials", 400, "invalid_credentials");
    expect(signInErrorMessage(error)).toEqual({ key: "auth.errors.invalidCredentials" });
  });

  it("tells a throttled client how many minutes to wait, rounded up", () => {
    const throttled = (seconds: unknown) =>
      new RpcError("Too many sign-in attempts. Please wait 15 minutes and try again.", "too_many_attempts", {
        retry_after_seconds: seconds,
      });
    expect(signInErrorMessage(throttled(900))).toEqual({ key: "auth.errors.tooManyAttempts", values: { count: 15 } });
    expect(signInErrorMessage(throttled(61))).toEqual({ key: "auth.errors.tooManyAttempts", values: { count: 2 } });
    expect(signInErrorMessage(throttled(1))).toEqual({ key: "auth.errors.tooManyAttempts", values: { count: 1 } });
    expect(signInErrorMessage(throttled(undefined))).toEqual({ key: "auth.errors.rateLimited" });
  });

  it("recognises Auth's rate limit (HTTP 429), with the minutes when its text names them", () => {
    const hosted = new AuthApiError("Request rate limit reached", 429, "over_request_rate_limit");
    expect(signInErrorMessage(hosted)).toEqual({ key: "auth.errors.rateLimited" });
    const local = new AuthApiError("Too many sign-in attempts. Please wait 3 minutes and try again.", 429, "over_request_rate_limit");
    expect(signInErrorMessage(local)).toEqual({ key: "auth.errors.tooManyAttempts", values: { count: 3 } });
  });

  it("recognises an unreachable server", () => {
    expect(signInErrorMessage(new AuthRetryableFetchError("Failed to fetch", 0))).toEqual({ key: "auth.errors.network" });
  });

  it("passes the lock's minutes on, as the plural count", () => {
    const error = new RpcError("Account is locked for 17 minutes", "account_locked", { locked_minutes: 17 });
    expect(signInErrorMessage(error)).toEqual({ key: "auth.errors.accountLocked", values: { count: 17 } });
  });

  it("names the email for which no organization was found", () => {
    const error = new RpcError("User not found: Unable to determine organization for a.b@demo.test", "no_organization");
    expect(signInErrorMessage(error)).toEqual({ key: "auth.errors.noOrganization", values: { email: "a.b@demo.test" } });
  });

  it.each([
    ["invalid_credentials", "auth.errors.invalidCredentials"],
    ["admin_locked", "auth.errors.adminLocked"],
    ["account_disabled", "auth.errors.accountDisabled"],
    ["auth_user_creation_failed", "auth.errors.authUserCreationFailed"],
    ["auth_user_creation_error", "auth.errors.authUserCreationError"],
    ["password_sync_failed", "auth.errors.passwordSyncFailed"],
    ["authentication_required", "auth.errors.authenticationRequired"],
    ["organization_not_available", "auth.errors.organizationRequired"],
    ["organization_switch_disabled", "organizations.errors.switchDisabled"],
    ["user_not_found", "auth.errors.userNotFound"],
  ])("maps the database's refusal %s", (code, key) => {
    expect(signInErrorMessage(new RpcError("refused", code))).toEqual({ key });
  });

  it.each([
    ["timeout", "auth.errors.timeout"],
    ["session_creation_failed", "auth.errors.sessionCreationFailed"],
    ["login_error", "auth.errors.loginError"],
    ["network", "auth.errors.network"],
  ] as const)("maps the flow's own failure %s", (code, key) => {
    expect(signInErrorMessage(new SignInError(code, "whatever"))).toEqual({ key });
  });

  it("maps other Auth API errors to the login error", () => {
    expect(signInErrorMessage(new AuthApiError("Email not confirmed", 400, "email_not_confirmed"))).toEqual({
      key: "auth.errors.loginError",
    });
  });

  it.each([
    ["a lock without minutes", new RpcError("Account is locked", "account_locked")],
    ["an unknown refusal", new RpcError("Something", "something_else")],
    ["an unknown auth error", new AuthUnknownError("boom", new Error("boom"))],
    ["a plain error", new Error("boom")],
    ["a non-error value", "boom"],
  ])("falls back to a generic message for %s", (_, error) => {
    expect(signInErrorMessage(error)).toEqual({ key: "auth.errors.unknown" });
  });
});
