/**
 * The last steps of every sending, whoever started it (the admin's test, a record's e-mail, a
 * reset link): with the secret key, the settings of that one started mail
 * (mail_delivery_settings: the organization's own, or none, then the installation's SMTP_*
 * mail), the sealed password opened, the message made and sent, what must follow an accepted
 * message, and the result recorded once (mail_finish_send). Shared by the mail and
 * password-reset functions.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { callRpc, type RpcAnswer } from "../_shared/privileged.ts";
import { unseal } from "./seal.ts";
import { smtpFailure, type Message, type SmtpSettings } from "./smtp.ts";

/** What sending needs: the secret-key client, the seal key, the installation's mail, the SMTP sender and the documents' files. */
export interface MailEnvironment {
  service: () => SupabaseClient;
  key: () => Promise<CryptoKey | null>;
  installation: () => (SmtpSettings & { from: string }) | null;
  send: (settings: SmtpSettings, message: Message) => Promise<void>;
  /** A kept document's file from the documents bucket (secret key); null when Storage has none. */
  download: (objectPath: string) => Promise<Uint8Array | null>;
}

/** "Name <address>" of the installation's sender (SMTP_FROM) as nodemailer's parts. */
function parseFrom(from: string): { name: string; address: string } {
  const match = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(from);
  return match ? { name: match[1].replace(/^"|"$/g, ""), address: match[2] } : { name: "", address: from.trim() };
}

/** The settings a started mail goes out with (the organization's own, else the installation's), or why it cannot. */
async function deliverySettings(environment: MailEnvironment, mailId: string): Promise<
  { settings: SmtpSettings; from: { name: string; address: string }; replyTo: string | null; organization: string } | { failure: string }
> {
  const delivery = await callRpc(environment.service(), "mail_delivery_settings", { p_mail_id: mailId }, "Mail error");
  if (!delivery.success) return { failure: "smtp_failed" };
  const own = delivery.settings as null | {
    host: string; port: number; security: SmtpSettings["security"]; username: string | null;
    password_sealed: string | null; sender_name: string | null; sender_address: string; reply_to: string | null;
  };
  const organization = delivery.organization_name as string;
  if (own) {
    let password: string | null = null;
    if (own.password_sealed !== null) {
      const key = await environment.key();
      password = key ? await unseal(key, own.password_sealed) : null;
      // Sealed with another key (MAIL_SETTINGS_KEY changed): the admin enters it again.
      if (password === null) return { failure: "smtp_password_unreadable" };
    }
    return {
      settings: { host: own.host, port: own.port, security: own.security, username: own.username, password },
      from: { name: own.sender_name ?? organization, address: own.sender_address },
      replyTo: own.reply_to,
      organization,
    };
  }
  const installation = environment.installation();
  if (!installation) return { failure: "mail_not_configured" };
  const { from, ...settings } = installation;
  return { settings, from: { ...parseFrom(from), name: organization }, replyTo: null, organization };
}

/** What a sending sends, made once the sending organization's name is known, or a failure code before anything goes out. */
export type PreparedMessage = Omit<Message, "from" | "replyTo"> | { failure: string };

/**
 * One started mail to its end: the settings, then `prepare` (what is sent, or a failure code
 * before anything goes out), the SMTP server's answer, then `accepted` (what must follow an
 * accepted message, as the caller), and the result recorded once (mail_finish_send);
 * `accepted`'s answer, or the failure's code (mail_not_configured, smtp_password_unreadable,
 * smtp_auth_failed, …).
 */
export async function deliver(
  environment: MailEnvironment,
  mailId: string,
  prepare: (organization: string) => Promise<PreparedMessage>,
  accepted: () => Promise<RpcAnswer> = () => Promise.resolve({ success: true }),
): Promise<RpcAnswer> {
  const finish = async (failure: string | null, answer: RpcAnswer = { success: true }): Promise<RpcAnswer> => {
    await callRpc(environment.service(), "mail_finish_send", { p_mail_id: mailId, p_sent: failure === null, p_error_code: failure }, "Mail error");
    return failure === null ? answer : { success: false, error: "The e-mail was not sent", code: failure };
  };
  const delivery = await deliverySettings(environment, mailId);
  if ("failure" in delivery) return await finish(delivery.failure);
  const content = await prepare(delivery.organization);
  if ("failure" in content) return await finish(content.failure);
  try {
    await environment.send(delivery.settings, { from: delivery.from, replyTo: delivery.replyTo, ...content });
  } catch (error) {
    return await finish(smtpFailure(error));
  }
  return await finish(null, await accepted());
}
