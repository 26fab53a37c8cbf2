/**
 * The sending environment of a deployed function (mail, password-reset): the secret-key
 * client, the seal key (MAIL_SETTINGS_KEY), the installation's mail (SMTP_HOST and the other
 * SMTP_* secrets; none without SMTP_HOST), nodemailer with MAIL_TIMEOUT_MS and the
 * documents bucket's files read with the secret key.
 */
import { serviceClient } from "../_shared/supabase.ts";
import type { MailEnvironment } from "./delivery.ts";
import { sealingKey } from "./seal.ts";
import { sendMessage } from "./smtp.ts";

/** The environment from the function's secrets, read once. */
export function mailEnvironment(): MailEnvironment {
  const timeoutMs = Number(Deno.env.get("MAIL_TIMEOUT_MS") ?? 10_000);
  const key = sealingKey(Deno.env.get("MAIL_SETTINGS_KEY"));
  const smtpHost = Deno.env.get("SMTP_HOST");
  const installation = smtpHost
    ? {
      host: smtpHost,
      port: Number(Deno.env.get("SMTP_PORT") ?? 587),
      security: (Deno.env.get("SMTP_SECURITY") ?? "starttls") as "starttls" | "tls" | "none",
      username: Deno.env.get("SMTP_USER") ?? null,
      password: Deno.env.get("SMTP_PASSWORD") ?? null,
      from: Deno.env.get("SMTP_FROM") ?? `no-reply@${smtpHost}`,
    }
    : null;
  return {
    service: serviceClient,
    key: () => key,
    installation: () => installation,
    send: (settings, message) => sendMessage(settings, message, timeoutMs),
    download: async (objectPath) => {
      const { data, error } = await serviceClient().storage.from("documents").download(objectPath);
      return error || !data ? null : new Uint8Array(await data.arrayBuffer());
    },
  };
}
