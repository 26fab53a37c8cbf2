/**
 * The last steps of every sending, whoever started it (the admin's test, a reset link): with
 * the secret key, the settings of that one started mail (mail_delivery_settings: the
 * organization's own, or none, then the installation's SMTP_* mail), the sealed password
 * opened, the message sent, and its result recorded (mail_finish_send). Shared by the mail
 * and password-reset functions.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { callRpc, type RpcAnswer } from "../_shared/privileged.ts";
import { unseal } from "./seal.ts";
import { smtpFailure, type Message, type SmtpSettings } from "./smtp.ts";

/** What sending needs: the secret-key client, the seal key, the installation's mail, and the SMTP sender. */
export interface MailEnvironment {
  service: () => SupabaseClient;
  key: () => Promise<CryptoKey | null>;
  installation: () => (SmtpSettings & { from: string }) | null;
  send: (settings: SmtpSettings, message: Message) => Promise<void>;
}

/** "Name <address>" of the installation's sender (SMTP_FROM) as nodemailer's parts. */
function parseFrom(from: string): { name: string; address: string } {
  const match = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(from);
  return match ? { name: match[1].replace(/^"|"$/g, ""), address: match[2] } : { name: "", address: from.trim() };
}

/**
 * Sends the started mail `mailId` to `to`, its subject and text composed once the sending
 * organization's name is known, and records the result; {success: true}, or the failure's
 * code (mail_not_configured, smtp_password_unreadable, smtp_auth_failed, …).
 */
export async function deliver(
  environment: MailEnvironment,
  mailId: string,
  to: string[],
  compose: (organization: string) => { subject: string; text: string },
): Promise<RpcAnswer> {
  const service = environment.service();
  const finish = async (failure: string | null): Promise<RpcAnswer> => {
    await callRpc(service, "mail_finish_send", { p_mail_id: mailId, p_sent: failure === null, p_error_code: failure }, "Mail error");
    return failure === null ? { success: true } : { success: false, error: "The e-mail was not sent", code: failure };
  };
  const delivery = await callRpc(service, "mail_delivery_settings", { p_mail_id: mailId }, "Mail error");
  if (!delivery.success) return await finish("smtp_failed");
  const own = delivery.settings as null | {
    host: string; port: number; security: SmtpSettings["security"]; username: string | null;
    password_sealed: string | null; sender_name: string | null; sender_address: string; reply_to: string | null;
  };
  const organization = delivery.organization_name as string;
  let settings: SmtpSettings;
  let from: { name: string; address: string };
  let replyTo: string | null = null;
  if (own) {
    let password: string | null = null;
    if (own.password_sealed !== null) {
      const key = await environment.key();
      password = key ? await unseal(key, own.password_sealed) : null;
      // Sealed with another key (MAIL_SETTINGS_KEY changed): the admin enters it again.
      if (password === null) return await finish("smtp_password_unreadable");
    }
    settings = { host: own.host, port: own.port, security: own.security, username: own.username, password };
    from = { name: own.sender_name ?? organization, address: own.sender_address };
    replyTo = own.reply_to;
  } else {
    const installation = environment.installation();
    if (!installation) return await finish("mail_not_configured");
    settings = installation;
    from = { ...parseFrom(installation.from), name: organization };
  }
  try {
    await environment.send(settings, { from, replyTo, to, ...compose(organization) });
  } catch (error) {
    return await finish(smtpFailure(error));
  }
  return await finish(null);
}
