import { describe, expect, it } from "vitest";
import { z } from "zod";
import { credentialsSchema } from "./schemas.ts";

describe("credentialsSchema", () => {
  const fieldErrors = (input: unknown) => {
    const result = credentialsSchema.safeParse(input);
    return result.success ? {} : z.flattenError(result.error).fieldErrors;
  };

  it("trims the email address and keeps the password as typed", () => {
    expect(credentialsSchema.parse({ email: "  admin@demo.test ", password: " Demo.1234 " })).toEqual({
      email: "admin@demo.test",
      password: " Demo.1234 ",
    });
  });

  it("reports empty fields with catalogue keys", () => {
    expect(fieldErrors({ email: " ", password: "" })).toEqual({
      email: ["auth.validation.emailRequired"],
      password: ["auth.validation.passwordRequired"],
    });
  });

  it("reports a malformed email address", () => {
    expect(fieldErrors({ email: "admin@", password: "x" })).toEqual({ email: ["auth.validation.emailInvalid"] });
  });
});
