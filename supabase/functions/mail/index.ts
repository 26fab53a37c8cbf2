import { clientForCaller, serviceClient } from "../_shared/supabase.ts";
import { createHandler } from "./handler.ts";
import { sealingKey } from "./seal.ts";
import { sendMessage } from "./smtp.ts";

const timeoutMs = Number(Deno.env.get("MAIL_TIMEOUT_MS") ?? 10_000);
const key = sealingKey(Deno.env.get("MAIL_SETTINGS_KEY"));
const smtpHost = Deno.env.get("SMTP_HOST");

Deno.serve(
  createHandler(clientForCaller, {
    service: serviceClient,
    key: () => key,
    installation: () =>
      smtpHost
        ? {
          host: smtpHost,
          port: Number(Deno.env.get("SMTP_PORT") ?? 587),
          security: (Deno.env.get("SMTP_SECURITY") ?? "starttls") as "starttls" | "tls" | "none",
          username: Deno.env.get("SMTP_USER") ?? null,
          password: Deno.env.get("SMTP_PASSWORD") ?? null,
          from: Deno.env.get("SMTP_FROM") ?? `no-reply@${smtpHost}`,
        }
        : null,
    send: (settings, message) => sendMessage(settings, message, timeoutMs),
    download: async (objectPath) => {
      const { data, error } = await serviceClient().storage.from("documents").download(objectPath);
      return error || !data ? null : new Uint8Array(await data.arrayBuffer());
    },
  }),
);
