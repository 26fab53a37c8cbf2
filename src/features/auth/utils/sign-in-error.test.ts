import { AuthApiError, AuthRetryableFetchError, AuthUnknownError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { signInErrorKey } from "./sign-in-error.ts";

describe("signInErrorKey", () => {
  it("recognises wrong credentials by their error code", () => {
    const error = new AuthApiError("Invalid login credentials", 400, "invalid_credentials");
    expect(signInErrorKey(error)).toBe("auth.errors.invalidCredentials");
  });

  it("recognises rate limiting", () => {
    const error = new AuthApiError("Request rate limit reached", 429, "over_request_rate_limit");
    expect(signInErrorKey(error)).toBe("auth.errors.rateLimited");
  });

  it("recognises an unreachable server", () => {
    expect(signInErrorKey(new AuthRetryableFetchError("Failed to fetch", 0))).toBe("auth.errors.network");
  });

  it.each([
    ["another API error", new AuthApiError("Email not confirmed", 400, "email_not_confirmed")],
    ["an unknown auth error", new AuthUnknownError("boom", new Error("boom"))],
    ["a plain error", new Error("boom")],
    ["a non-error value", "boom"],
  ])("falls back to a generic message for %s", (_, error) => {
    expect(signInErrorKey(error)).toBe("auth.errors.unknown");
  });
});
