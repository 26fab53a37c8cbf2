/**
 * One message out through SMTP (nodemailer), and what went wrong in the product's words.
 * Timeouts keep a dead server from holding the request: MAIL_TIMEOUT_MS (default 10 s) for
 * the connection and the greeting, twice that for any later silence.
 */
// @ts-types="npm:@types/nodemailer@8.0.2"
import { Buffer } from "node:buffer";
import { createTransport } from "nodemailer";

export interface SmtpSettings {
  host: string;
  port: number;
  security: "starttls" | "tls" | "none";
  username: string | null;
  password: string | null;
}

/** A file sent with a message (a record's PDF). */
export interface Attachment {
  filename: string;
  content: Uint8Array;
  contentType: string;
}

export interface Message {
  from: { name: string; address: string };
  replyTo?: string | null;
  to: string[];
  cc?: string[];
  subject: string;
  text: string;
  attachments?: Attachment[];
}

/** Why a sending failed, as the app words it (src/features/admin/mail/utils/mail-errors.ts). */
export type SmtpFailure = "smtp_auth_failed" | "smtp_unreachable" | "smtp_tls_failed" | "recipient_refused" | "smtp_failed";

/** nodemailer's error as one of the product's failure codes. */
export function smtpFailure(error: unknown): SmtpFailure {
  const { code, responseCode } = (error ?? {}) as { code?: string; responseCode?: number };
  if (code === "EAUTH" || responseCode === 535 || responseCode === 534) return "smtp_auth_failed";
  if (code === "EENVELOPE" || (responseCode !== undefined && responseCode >= 550 && responseCode <= 553)) return "recipient_refused";
  if (code === "ETLS" || code === "EREQUIRETLS") return "smtp_tls_failed";
  if (["ECONNECTION", "ESOCKET", "ETIMEDOUT", "EDNS", "ECONNREFUSED", "EGREETING"].includes(code ?? "")) return "smtp_unreachable";
  return "smtp_failed";
}

export async function sendMessage(settings: SmtpSettings, message: Message, timeoutMs: number): Promise<void> {
  const transport = createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.security === "tls",
    requireTLS: settings.security === "starttls",
    ignoreTLS: settings.security === "none",
    auth: settings.username ? { user: settings.username, pass: settings.password ?? "" } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs * 2,
  });
  try {
    await transport.sendMail({
      from: { name: message.from.name, address: message.from.address },
      replyTo: message.replyTo ?? undefined,
      to: message.to,
      cc: message.cc?.length ? message.cc : undefined,
      subject: message.subject,
      text: message.text,
      attachments: message.attachments?.map((file) => ({ ...file, content: Buffer.from(file.content) })),
    });
  } finally {
    transport.close();
  }
}
