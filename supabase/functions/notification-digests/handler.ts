/**
 * Notifications by e-mail (issue 27 part 6, DESIGN.md D12): the scheduler's call (the local
 * stack every minute, hosted Supabase from pg_cron with pg_net; README) with the secret key
 * and nothing else. It asks the database for the digests due (notification_digests_begin,
 * 22_notification_digests.sql: who turned the digest on, at most one an hour, each started as
 * a mail under the organization's hourly limit) and sends each through the sending
 * organization's mail or the installation's (mail/delivery.ts). A digest names its
 * notifications in words, each with its record's title and a link into the app (SITE_URL).
 */
import { failure, json, preflight } from "../_shared/http.ts";
import { callRpc } from "../_shared/privileged.ts";
import { deliver, type MailEnvironment } from "../mail/delivery.ts";
import { fillTemplate } from "../mail/template.ts";

/** What this function needs: the sending environment, the app's address and the secret keys that may call it. */
export interface DigestEnvironment {
  mail: MailEnvironment;
  /** The app's own address (SITE_URL) the links open; null: a digest without links. */
  siteUrl: string | null;
  /** The project's secret keys (SUPABASE_SECRET_KEY, SUPABASE_SERVICE_ROLE_KEY): the only callers. */
  secretKeys: string[];
}

interface DueItem {
  kind: string;
  title: string | null;
  module: string | null;
  record_id: string | null;
}

interface DueDigest {
  mail_id: string;
  to: string;
  language: "tr" | "en";
  subject: string;
  body: string;
  values: Record<string, string>;
  items: DueItem[];
  more: number;
}

/**
 * Each notification kind in words, as the bell says them (src/features/notifications/i18n:
 * the function is deployed alone, so it keeps its own copy; a test holds them equal).
 */
export const kindWords: Record<"tr" | "en", Record<string, string>> = {
  tr: {
    task_assigned: "Size bir görev atandı",
    task_due: "Görevin zamanı bir saat içinde geliyor",
    task_overdue: "Görevin zamanı geçti",
    task_reminder: "Görev hatırlatması",
    deal_assigned: "Size bir fırsat atandı",
    customer_assigned: "Size bir müşteri atandı",
    contract_renewal: "Sözleşme yenileme zamanı yaklaşıyor",
  },
  en: {
    task_assigned: "A task was assigned to you",
    task_due: "A task is due within the hour",
    task_overdue: "A task is overdue",
    task_reminder: "Task reminder",
    deal_assigned: "A deal was assigned to you",
    customer_assigned: "A customer was assigned to you",
    contract_renewal: "A contract is due for renewal",
  },
};

const moreWords = { tr: (count: number) => `… ve ${count} bildirim daha`, en: (count: number) => `… and ${count} more` };

/** A record's page in the app (its module's route and id), or null when the notification names none. */
function recordLink(siteUrl: string | null, item: DueItem): string | null {
  if (!siteUrl || !item.module || !item.record_id || !/^[a-z_]+$/.test(item.module)) return null;
  return `${siteUrl}/${item.module}/${encodeURIComponent(item.record_id)}`;
}

/** The digest's list: a line per notification in words with its record's title, its link under it. */
export function digestItems(digest: Pick<DueDigest, "language" | "items" | "more">, siteUrl: string | null): string {
  const words = kindWords[digest.language] ?? kindWords.tr;
  const lines = digest.items.map((item) => {
    const line = `• ${words[item.kind] ?? item.kind}${item.title ? `: ${item.title.replace(/[\r\n]+/g, " ")}` : ""}`;
    const link = recordLink(siteUrl, item);
    return link ? `${line}\n  ${link}` : line;
  });
  if (digest.more > 0) lines.push(moreWords[digest.language](digest.more));
  return lines.join("\n");
}

/** The bearer token of a request, or null. */
function bearer(request: Request): string | null {
  return /^Bearer (.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? null;
}

/** Whether a token is one of the secret keys, compared in constant time. */
function isSecretKey(token: string, keys: string[]): boolean {
  const given = new TextEncoder().encode(token);
  return keys.some((key) => {
    const expected = new TextEncoder().encode(key);
    let difference = given.length ^ expected.length;
    for (let index = 0; index < expected.length; index++) difference |= expected[index] ^ (given[index] ?? 0);
    return key !== "" && difference === 0;
  });
}

/** The function's handler: POST with the secret key; answers {success, sent, failed}; 401 without a key, 403 with another. */
export function createHandler(environment: DigestEnvironment) {
  return async (request: Request): Promise<Response> => {
    if (request.method === "OPTIONS") return preflight();
    if (request.method !== "POST") return failure(405, "Method not allowed");
    // No key: 401. Any other key (a member's session, the publishable key): 403, so that an app
    // that signs out on a function's 401 never signs a person out over this function.
    const token = bearer(request);
    if (token === null) return failure(401, "Unauthorized", "Only the scheduler may send digests.");
    if (!isSecretKey(token, environment.secretKeys)) return failure(403, "Forbidden", "Only the scheduler may send digests.");
    try {
      const begun = await callRpc(environment.mail.service(), "notification_digests_begin", {
        p_installation_mail: environment.mail.installation() !== null,
      }, "Digest error");
      if (!begun.success) return json(begun, 500);
      let sent = 0;
      let failed = 0;
      // One after another: an organization's server sees one connection at a time, as from the app.
      for (const digest of (begun.digests ?? []) as DueDigest[]) {
        const values = {
          ...digest.values,
          "digest.items": digestItems(digest, environment.siteUrl),
          "digest.link": environment.siteUrl ? `${environment.siteUrl}/` : "",
        };
        const answer = await deliver(environment.mail, digest.mail_id, () =>
          Promise.resolve({
            to: [digest.to],
            // One line: a title with a line break cannot add a header.
            subject: fillTemplate(digest.subject, values).replace(/[\r\n]+/g, " "),
            text: fillTemplate(digest.body, values),
          }));
        if (answer.success) sent++;
        else failed++;
      }
      return json({ success: true, sent, failed });
    } catch {
      return failure(500, "Request failed");
    }
  };
}
