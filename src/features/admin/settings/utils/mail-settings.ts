/**
 * The mail settings form: its values, the browser's checks (the database's rules: a host,
 * a port 1-65535, a sender address; e-mail addresses), what is sent, and each refusal of
 * the database or the mail function as a message (a field's, or the form's).
 */
import { z } from "zod";
import { mapFailure } from "@/lib/errors.ts";
import { smtpFailureCodes } from "@/lib/mail-failures.ts";
import { RpcError } from "@/lib/rpc.ts";
import type { MailSecurity, MailSettings, MailSettingsInput } from "../api/mail.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HOST = /^[A-Za-z0-9]([A-Za-z0-9.:-]{0,251}[A-Za-z0-9])?$/;
const msg = (key: string) => `adminSettings.mail.errors.${key}`;

export const mailFormSchema = z.object({
  host: z.string().trim().min(1, msg("hostRequired")).regex(HOST, msg("hostInvalid")),
  port: z.number(msg("portInvalid")).int(msg("portInvalid")).min(1, msg("portInvalid")).max(65535, msg("portInvalid")),
  security: z.enum(["starttls", "tls", "none"]),
  username: z.string().trim().max(254, msg("tooLong")),
  password: z.string().max(500, msg("tooLong")),
  forget_password: z.boolean(),
  sender_name: z.string().trim().max(100, msg("tooLong")),
  sender_address: z.string().trim().min(1, msg("senderRequired")).regex(EMAIL, msg("emailInvalid")),
  reply_to: z.string().trim().refine((value) => value === "" || EMAIL.test(value), msg("emailInvalid")),
});
export type MailFormValues = z.infer<typeof mailFormSchema>;

/** The usual port of each security (what the form suggests when it changes). */
export const defaultPorts: Record<MailSecurity, number> = { starttls: 587, tls: 465, none: 25 };

export function mailFormOf(settings: MailSettings | null): MailFormValues {
  return {
    host: settings?.host ?? "",
    port: settings?.port ?? 587,
    security: settings?.security ?? "starttls",
    username: settings?.username ?? "",
    password: "",
    forget_password: false,
    sender_name: settings?.sender_name ?? "",
    sender_address: settings?.sender_address ?? "",
    reply_to: settings?.reply_to ?? "",
  };
}

const orNull = (value: string) => (value.trim() === "" ? null : value.trim());

/** What is sent: blanks as null; a typed password sets it, "forget" removes it, else the kept one stays. */
export function mailInputOf(form: MailFormValues): MailSettingsInput {
  return {
    settings: {
      host: form.host.trim(),
      port: form.port,
      security: form.security,
      username: orNull(form.username),
      sender_name: orNull(form.sender_name),
      sender_address: form.sender_address.trim(),
      reply_to: orNull(form.reply_to),
    },
    ...(form.password !== "" ? { password: form.password } : form.forget_password ? { password: null } : {}),
  };
}

/** The refusals a sending or a save can meet, each with its message. */
export const mailFailureCodes = [...smtpFailureCodes, "admin_required"] as const;

const formFields = ["host", "port", "security", "username", "password", "sender_name", "sender_address", "reply_to"] as const;
export type MailFormField = (typeof formFields)[number];

/** The database's field codes as messages (anything else: "invalid"). */
const fieldMessages: Record<string, string> = { required: "required", too_long: "tooLong", invalid_email: "emailInvalid" };

/** A refusal as a field (its message goes under it) or none (above the form), and the message's key. */
export function mailFailure(error: unknown): { field: MailFormField | null; key: string } {
  if (error instanceof RpcError && error.code === "invalid_fields") {
    const fields = (error.details.fields ?? {}) as Record<string, string>;
    const field = formFields.find((name) => name in fields);
    if (field) return { field, key: msg(fieldMessages[fields[field]] ?? "invalid") };
  }
  const byCode = Object.fromEntries(mailFailureCodes.map((code) => [code, msg(code)]));
  return { field: null, key: mapFailure(error, byCode, { network: msg("network"), unknown: msg("unknown") }) };
}
