/**
 * The local product's mail server (issue 27, part 7): a real SMTP server on this machine
 * (smtp-server) that keeps every message it is given, parsed (mailparser), and delivers none.
 * `npm start` runs it, so that what the product would send can be read before any real mail
 * settings are entered: at GET /_stack/mail as JSON (with the installation's secret key), and
 * on the loopback-only page /_stack/mail/inbox (server.ts). Nothing leaves the machine.
 *
 * It listens on 127.0.0.1 only, takes any user name and password (the product's mail settings
 * need some), offers no TLS (a client asking for STARTTLS is told it is not there), and keeps
 * the newest `keep` messages (1,000) in memory: a restart empties it, as maildev does.
 */
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { simpleParser, type AddressObject } from "mailparser";
import { SMTPServer } from "smtp-server";

/** One attachment of a caught message (its bytes stay on the server; read them by index). */
export interface CaughtAttachment {
  filename: string | null;
  contentType: string;
  size: number;
}

/** A caught message as GET /_stack/mail lists it. */
export interface CaughtMessage {
  id: string;
  receivedAt: string;
  /** The SMTP envelope: who the client said it sends for, and every recipient (cc and bcc too). */
  envelope: { from: string | null; to: string[] };
  from: string | null;
  to: string[];
  cc: string[];
  replyTo: string | null;
  /** Decoded (an encoded-word subject such as =?UTF-8?B?…?= comes back as its Turkish text). */
  subject: string | null;
  text: string | null;
  html: string | null;
  attachments: CaughtAttachment[];
}

export interface MailCatcher {
  /** The SMTP port on 127.0.0.1. */
  port: number;
  /** The caught messages, newest first. */
  messages(): CaughtMessage[];
  /** One attachment's bytes, or null when there is no such message or attachment. */
  attachment(messageId: string, index: number): { meta: CaughtAttachment; content: Buffer } | null;
  clear(): void;
  close(): Promise<void>;
}

/** A message larger than this is refused by the server (SMTP 552), as a provider would. */
export const MAIL_SIZE_LIMIT = 25 * 1024 * 1024;

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((group) => group.value.map((entry) => entry.address ?? "")).filter(Boolean);

/** Starts the mail server on 127.0.0.1 (port 0: any free one). */
export async function startMailCatcher(options: { port?: number; keep?: number } = {}): Promise<MailCatcher> {
  const keep = options.keep ?? 1000;
  const caught: { message: CaughtMessage; contents: Buffer[] }[] = [];

  const server = new SMTPServer({
    name: "satis-crm.local",
    banner: "Satış CRM local mail server: messages are kept here, never delivered",
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    size: MAIL_SIZE_LIMIT,
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: "local" });
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
            const error = new Error("Message exceeds the size limit") as Error & { responseCode: number };
            error.responseCode = 552;
            callback(error);
            return;
          }
          const message: CaughtMessage = {
            id: randomUUID(),
            receivedAt: new Date().toISOString(),
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
            },
            from: addresses(parsed.from)[0] ?? null,
            to: addresses(parsed.to),
            cc: addresses(parsed.cc),
            replyTo: addresses(parsed.replyTo)[0] ?? null,
            subject: parsed.subject ?? null,
            text: parsed.text ?? null,
            html: typeof parsed.html === "string" ? parsed.html : null,
            attachments: parsed.attachments.map((attachment) => ({
              filename: attachment.filename ?? null,
              contentType: attachment.contentType,
              size: attachment.size,
            })),
          };
          caught.unshift({ message, contents: parsed.attachments.map((attachment) => attachment.content) });
          caught.splice(keep);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  // A client that goes away mid-message is the client's problem; the server keeps running.
  server.on("error", () => {});

  return {
    port: (server.server.address() as AddressInfo).port,
    messages: () => caught.map((entry) => entry.message),
    attachment(messageId, index) {
      const entry = caught.find((each) => each.message.id === messageId);
      const meta = entry?.message.attachments[index];
      return entry && meta ? { meta, content: entry.contents[index] } : null;
    },
    clear: () => void caught.splice(0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
