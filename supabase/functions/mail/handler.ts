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
import { deliver, type MailEnvironment } from "./delivery.ts";
import { seal } from "./seal.ts";

export type { MailEnvironment };

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
