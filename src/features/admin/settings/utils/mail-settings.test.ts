import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { mailFailure, mailFormOf, mailFormSchema, mailInputOf } from "./mail-settings.ts";

const saved = {
  host: "smtp.ornek.com.tr", port: 587, security: "starttls" as const, username: "satis@ornek.com.tr", has_password: true,
  sender_name: null, sender_address: "satis@ornek.com.tr", reply_to: null, updated_at: "2026-11-28T10:00:00Z",
};

describe("the mail settings form", () => {
  it("sends blanks as null and never a password it was not given", () => {
    const form = { ...mailFormOf(saved), sender_name: "  ", reply_to: "" };
    expect(mailInputOf(form)).toEqual({
      settings: { host: "smtp.ornek.com.tr", port: 587, security: "starttls", username: "satis@ornek.com.tr", sender_name: null, sender_address: "satis@ornek.com.tr", reply_to: null },
    });
    expect(mailInputOf({ ...form, password: "Yeni.Sifre-1" }).password).toBe("Yeni.Sifre-1");
    expect(mailInputOf({ ...form, forget_password: true })).toHaveProperty("password", null);
  });

  it("checks a host, a port and the addresses as the database does", () => {
    const problems = mailFormSchema.safeParse({ ...mailFormOf(null), host: "bad host", port: 70000, sender_address: "nope", reply_to: "x@" });
    expect(problems.success).toBe(false);
    expect(Object.fromEntries(problems.error!.issues.map((issue) => [issue.path[0], issue.message]))).toEqual({
      host: "adminSettings.mail.errors.hostInvalid",
      port: "adminSettings.mail.errors.portInvalid",
      sender_address: "adminSettings.mail.errors.emailInvalid",
      reply_to: "adminSettings.mail.errors.emailInvalid",
    });
    expect(mailFormSchema.safeParse({ ...mailFormOf(saved) }).success).toBe(true);
  });

  it("puts a refused field's message under it, and any other refusal above the form, never its code", () => {
    expect(mailFailure(new RpcError("Invalid fields", "invalid_fields", { fields: { sender_address: "invalid_email" } }))).toEqual({
      field: "sender_address", key: "adminSettings.mail.errors.emailInvalid",
    });
    expect(mailFailure(new RpcError("The e-mail was not sent", "smtp_auth_failed"))).toEqual({ field: null, key: "adminSettings.mail.errors.smtp_auth_failed" });
    expect(mailFailure(new RpcError("?", "something_new"))).toEqual({ field: null, key: "adminSettings.mail.errors.unknown" });
    expect(mailFailure(new TypeError("Failed to fetch"))).toEqual({ field: null, key: "adminSettings.mail.errors.network" });
  });
});
