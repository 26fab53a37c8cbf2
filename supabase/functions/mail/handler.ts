/**
 * E-mail (issue 27): the organization's SMTP settings (saved with the password sealed, seal.ts),
 * the admin's test e-mail, and a quote's or contract's e-mail with its PDF (send_record). The database decides who may do what (save_mail_settings,
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
  z.object({
    action: z.literal("send_record"),
    module: z.enum(["quotes", "contracts"]),
    record_id: z.guid(),
    kind: z.enum(["quote", "contract", "contract_renewal"]),
    to: z.array(z.string().max(254)).min(1).max(50),
    cc: z.array(z.string().max(254)).max(50).default([]),
    subject: z.string().min(1).max(300),
    body: z.string().max(20000),
    document_id: z.guid().nullish(),
    // A quote's updated_at as read: send_quote's stale check.
    updated_at: z.string().max(64).optional(),
  }),
]);

/** What this function needs besides the caller's client: the secret-key client, the seal key, the installation's mail. */
export interface MailEnvironment {
  service: () => SupabaseClient;
  key: () => Promise<CryptoKey | null>;
  installation: () => (SmtpSettings & { from: string }) | null;
  send: (settings: SmtpSettings, message: Message) => Promise<void>;
  /** A kept document's file from the documents bucket (secret key); null when Storage has none. */
  download: (objectPath: string) => Promise<Uint8Array | null>;
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

/**
 * One started mail to its end: the settings, then `prepare` (what is sent, or a failure code
 * before anything goes out), the SMTP server's answer, then `accepted` (what must follow an
 * accepted message, as the caller), and the result recorded once (mail_finish_send).
 */
async function deliver(
  environment: MailEnvironment,
  mailId: string,
  prepare: (organization: string) => Promise<Omit<Message, "from" | "replyTo"> | { failure: string }>,
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

async function sendTest(caller: SupabaseClient, environment: MailEnvironment, to: string, language: "tr" | "en"): Promise<RpcAnswer> {
  const wording = testMail[language];
  const begun = await callRpc(caller, "mail_begin_send", { p_kind: "test", p_recipients: [to], p_subject: wording("").subject }, "Mail error");
  if (!begun.success) return begun;
  return await deliver(environment, begun.mail_id as string, (organization) => Promise.resolve({ to: [to], ...wording(organization) }));
}

type RecordMail = Extract<z.output<typeof mailRequest>, { action: "send_record" }>;

/**
 * A quote's or contract's e-mail with its kept PDF: the database checks the caller and the
 * record (mail_begin_send as the caller), the attachment is read from Storage with the
 * secret key, and a quote is marked sent (send_quote as the caller) only once the server
 * accepted the message; a refused message leaves the quote a draft.
 */
async function sendRecord(caller: SupabaseClient, environment: MailEnvironment, input: RecordMail): Promise<RpcAnswer> {
  const begun = await callRpc(caller, "mail_begin_send", {
    p_kind: input.kind,
    p_recipients: input.to,
    p_subject: input.subject,
    p_record: { module: input.module, record_id: input.record_id, cc: input.cc, body: input.body,
                document_id: input.document_id ?? null, updated_at: input.updated_at ?? null },
  }, "Mail error");
  if (!begun.success) return begun;
  const attachment = begun.attachment as null | { object_path: string; file_name: string; mime_type: string };
  const marked = async (): Promise<RpcAnswer> => {
    if (input.kind !== "quote") return { success: true };
    const answer = await callRpc(caller, "send_quote", { p_id: input.record_id, p_updated_at: input.updated_at }, "Quote error");
    // Sent, but someone changed the quote in between: said, never hidden.
    return answer.success ? { success: true, quote: answer } : { success: false, error: "The e-mail was sent; the quote was not marked sent", code: "quote_not_marked" };
  };
  return await deliver(environment, begun.mail_id as string, async () => {
    const files = [];
    if (attachment) {
      const content = await environment.download(attachment.object_path).catch(() => null);
      if (!content) return { failure: "attachment_unreadable" };
      files.push({ filename: attachment.file_name, content, contentType: attachment.mime_type });
    }
    return { to: input.to, cc: input.cc, subject: input.subject, text: input.body, attachments: files };
  }, marked);
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
      send_record: (caller, input) => sendRecord(caller, environment, input),
    },
    clientForCaller,
  );
}
