import { describe, expect, it } from "vitest";
import { checkCredentials } from "./credentials.ts";

describe("checkCredentials", () => {
  const errors = (email: string, password: string) => {
    const result = checkCredentials({ email, password });
    return result.ok ? {} : result.errors;
  };

  it("trims the email address and keeps the password as typed", () => {
    expect(checkCredentials({ email: "  admin@demo.test ", password: " Demo.1234 " })).toEqual({
      ok: true,
      credentials: { email: "admin@demo.test", password: " Demo.1234 " },
    });
  });

  it("reports empty fields with catalogue keys", () => {
    expect(errors(" ", "")).toEqual({
      email: "auth.validation.emailRequired",
      password: "auth.validation.passwordRequired",
    });
  });

  it.each(["admin@", "admin", "@demo.test", "admin@demo", "ad min@demo.test", ".admin@demo.test", "admin..x@demo.test"])(
    "reports a malformed email address (%s)",
    (email) => {
      expect(errors(email, "x")).toEqual({ email: "auth.validation.emailInvalid" });
    },
  );

  it.each(["admin@demo.test", "ADMIN+crm@acme.com.tr", "o'brien@mail.example.org", "first.last@x-y.co"])("accepts %s", (email) => {
    expect(checkCredentials({ email, password: "x" }).ok).toBe(true);
  });
});
