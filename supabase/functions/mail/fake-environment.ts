/**
 * A sending environment for the functions' unit tests (password-reset, notification-digests):
 * a fake secret-key client answering `answers` (the organization's delivery settings: none, so
 * the installation's mail), the installation's mail on 127.0.0.1, and a sender that records
 * each message (or `send`, to make one fail).
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { fakeCaller } from "../_shared/fake-caller.ts";
import type { MailEnvironment } from "./delivery.ts";
import type { Message, SmtpSettings } from "./smtp.ts";

export const installationMail = {
  host: "127.0.0.1", port: 2525, security: "none" as const, username: null, password: null, from: "Satış CRM <no-reply@crm.local>",
};

export function fakeMailEnvironment(
  organizationName: string,
  answers: Record<string, { data: unknown; error: unknown }>,
  send?: MailEnvironment["send"],
) {
  const service = fakeCaller({
    answers: { mail_delivery_settings: { data: { success: true, organization_name: organizationName, settings: null }, error: null }, ...answers },
  });
  const sent: { settings: SmtpSettings; message: Message }[] = [];
  const mail: MailEnvironment = {
    service: () => service.factory("Bearer secret") as SupabaseClient,
    key: () => Promise.resolve(null),
    installation: () => installationMail,
    send: send ?? ((settings, message) => Promise.resolve(void sent.push({ settings, message }))),
    download: () => Promise.resolve(null),
  };
  return { mail, service, sent };
}
