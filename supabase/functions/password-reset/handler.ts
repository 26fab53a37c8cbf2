/**
 * "Şifremi unuttum" (issue 27 part 5, DESIGN.md D12): anonymous, so it authenticates nothing
 * from the client and decides nothing itself. With the secret key it asks the database
 * (21_password_reset.sql) to begin a reset for an e-mail (throttled per e-mail and per
 * address, the same answer whether or not the e-mail has an account) and, when a link is
 * due, sends it through the sending organization's mail or the installation's (mail/delivery.ts),
 * in the background, so that the answer takes as long either way; or to complete one with
 * the link's token and a new password. The link is SITE_URL/reset-password#token=… (a
 * fragment: never sent to a server, so never in a server's log); this function never logs
 * a token or a link, and neither does the database (it keeps the token's sha-256 only).
 */
import { z } from "zod";
import { failure, json, preflight } from "../_shared/http.ts";
import { callRpc, statusFor, type RpcAnswer } from "../_shared/privileged.ts";
import { deliver, type MailEnvironment } from "../mail/delivery.ts";
import { fillTemplate } from "../mail/template.ts";

export const resetRequest = z.discriminatedUnion("action", [
  z.object({ action: z.literal("request"), email: z.string().max(254), language: z.enum(["tr", "en"]).default("tr") }),
  z.object({ action: z.literal("complete"), token: z.string().min(1).max(100), password: z.string().max(500) }),
]);

/** What this function needs: the sending environment, the app's address, and a way to finish work after answering. */
export interface ResetEnvironment {
  mail: MailEnvironment;
  /** The app's own address (SITE_URL) the link opens; null: no links can be made. */
  siteUrl: string | null;
  /** Starts a task the answer does not wait for (hosted: kept alive with EdgeRuntime.waitUntil). */
  background: (task: () => Promise<unknown>) => void;
}

/**
 * The client's address as the gateway saw it: Cloudflare's cf-connecting-ip on hosted
 * Supabase, else the last X-Forwarded-For entry (the one the nearest proxy appended; the local
 * stack's front writes the header itself), as private.client_address() reads it.
 */
export function clientAddress(request: Request): string | null {
  const forwarded = (request.headers.get("x-forwarded-for") ?? "").split(",");
  return (request.headers.get("cf-connecting-ip") ?? forwarded[forwarded.length - 1]).trim() || null;
}

/** The app's address from SITE_URL: an http(s) URL without a trailing slash, else null. */
export function siteUrlFrom(setting: string | undefined): string | null {
  try {
    const url = new URL(setting ?? "");
    return url.protocol === "https:" || url.protocol === "http:" ? url.href.replace(/\/+$/, "") : null;
  } catch {
    return null;
  }
}

interface StartedMail {
  mail_id: string;
  to: string;
  token: string;
  subject: string;
  body: string;
  values: Record<string, string>;
}

async function requestLink(environment: ResetEnvironment, request: Request, email: string, language: "tr" | "en"): Promise<RpcAnswer> {
  if (!environment.siteUrl) return { success: false, error: "Password reset is not available", code: "password_reset_unavailable" };
  const begun = await callRpc(environment.mail.service(), "password_reset_begin", {
    p_email: email,
    p_client_address: clientAddress(request),
    p_language: language,
    p_installation_mail: environment.mail.installation() !== null,
  }, "Password reset error");
  if (!begun.success) return begun;
  const mail = begun.mail as StartedMail | undefined;
  if (mail) {
    const values = { ...mail.values, "reset.link": `${environment.siteUrl}/reset-password#token=${mail.token}` };
    environment.background(() =>
      deliver(environment.mail, mail.mail_id, () =>
        Promise.resolve({
          to: [mail.to],
          // One line: a name with a line break cannot add a header.
          subject: fillTemplate(mail.subject, values).replace(/[\r\n]+/g, " "),
          text: fillTemplate(mail.body, values),
        })),
    );
  }
  return { success: true };
}

/** The function's handler: POST {action: "request", email, language} or {action: "complete", token, password}. */
export function createHandler(environment: ResetEnvironment) {
  return async (request: Request): Promise<Response> => {
    if (request.method === "OPTIONS") return preflight();
    if (request.method !== "POST") return failure(405, "Method not allowed");
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return failure(400, "Invalid request", "The body must be JSON.");
    }
    const parsed = resetRequest.safeParse(body);
    if (!parsed.success) return json({ success: false, error: "Invalid request", code: "invalid_request" }, 400);
    const input = parsed.data;
    try {
      const answer = input.action === "request"
        ? await requestLink(environment, request, input.email, input.language)
        : await callRpc(environment.mail.service(), "password_reset_complete", {
          p_token: input.token,
          p_password: input.password,
          p_client_address: clientAddress(request),
        }, "Password reset error");
      return json(answer, statusFor(answer));
    } catch {
      return failure(500, "Request failed");
    }
  };
}
