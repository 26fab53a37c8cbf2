/**
 * E-mail (issue 27): the organization's SMTP settings (saved with the password sealed, seal.ts)
 * and the admin's test e-mail. The database decides who may do what (save_mail_settings,
 * mail_begin_send: the organization's admin; the hourly limit); with the secret key this
 * function then reads the settings of that one started mail (mail_delivery_settings), sends,
 * and records the result (mail_finish_send). An organization without settings of its own
 * sends through the installation's (SMTP_* function secrets; locally the stack's own mail
 * server), when there is one.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { z } from "zod";
import { callRpc, privilegedHandler, type CallerClientFactory, type RpcAnswer } from "../_shared/privileged.ts";
import { seal, unseal } from "./seal.ts";
import { smtpFailure, type Message, type SmtpSettings } from "./smtp.ts";

const optionalText = (max: number) => z.string().max(max).nullish();

export const mailRequest = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("save_settings"),
    settings: z.object({
      host: z.string().max(253),
      port: z.number().int(),
      security: z.enum(["starttls", "tls", "none"]),
      username: optionalText(254),
      sender_name: optionalText(100),
      sender_address: z.string().max(254),
      reply_to: optionalText(254),
    }),
    // A string sets the password, null removes it, absent keeps the one kept.
    password: z.string().min(1).max(500).nullish(),
  }),
  z.object({ action: z.literal("clear_settings") }),
  z.object({ action: z.literal("send_test"), to: z.string().max(254), language: z.enum(["tr", "en"]).default("tr") }),
]);

/** What this function needs besides the caller's client: the secret-key client, the seal key, the installation's mail. */
export interface MailEnvironment {
  service: () => SupabaseClient;
  key: () => Promise<CryptoKey | null>;
  installation: () => (SmtpSettings & { from: string }) | null;
  send: (settings: SmtpSettings, message: Message) => Promise<void>;
}

const testMail = {
  tr: (organization: string) => ({
    subject: "Satış CRM: deneme e-postası",
    text: `Bu ileti, ${organization} için girilen e-posta ayarlarını denemek üzere gönderildi. Ulaştıysa ayarlar çalışıyor.`,
  }),
  en: (organization: string) => ({
    subject: "Satış CRM: test e-mail",
    text: `This message was sent to try the e-mail settings entered for ${organization}. If it arrived, they work.`,
  }),
};

/** "Name <address>" of the installation's sender (SMTP_FROM) as nodemailer's parts. */
function parseFrom(from: string): { name: string; address: string } {
  const match = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(from);
  return match ? { name: match[1].replace(/^"|"$/g, ""), address: match[2] } : { name: "", address: from.trim() };
}

async function sendTest(caller: SupabaseClient, environment: MailEnvironment, to: string, language: "tr" | "en"): Promise<RpcAnswer> {
  const wording = testMail[language];
  const begun = await callRpc(caller, "mail_begin_send", { p_kind: "test", p_recipients: [to], p_subject: wording("").subject }, "Mail error");
  if (!begun.success) return begun;
  const mailId = begun.mail_id as string;
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
    await environment.send(settings, { from, replyTo, to: [to], ...wording(organization) });
  } catch (error) {
    return await finish(smtpFailure(error));
  }
  return await finish(null);
}

export function createHandler(clientForCaller: CallerClientFactory, environment: MailEnvironment) {
  return privilegedHandler(
    mailRequest,
    {
      save_settings: async (caller, input) => {
        let sealed: string | null | undefined = input.password === undefined ? undefined : null;
        if (input.password) {
          const key = await environment.key();
          if (!key) return { success: false, error: "Mail passwords cannot be kept here", code: "mail_key_missing" };
          sealed = await seal(key, input.password);
        }
        return await callRpc(caller, "save_mail_settings", {
          p_settings: { ...input.settings, ...(sealed === undefined ? {} : { password_sealed: sealed }) },
        }, "Mail settings error");
      },
      clear_settings: (caller) => callRpc(caller, "save_mail_settings", { p_settings: { clear: true } }, "Mail settings error"),
      send_test: (caller, input) => sendTest(caller, environment, input.to, input.language),
    },
    clientForCaller,
  );
}
