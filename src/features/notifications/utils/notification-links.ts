/**
 * Where a notification leads and how it reads: the record's page (task → /tasks/:id, deal
 * → /deals/:id, customer → /customers/:id...; a module without record pages → its list),
 * and how long ago it came.
 */
import { recordPath } from "@/modules/registry.ts";

export const notificationKinds = [
  "task_assigned",
  "task_due",
  "task_overdue",
  "task_reminder",
  "deal_assigned",
  "customer_assigned",
  "contract_renewal",
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

export function isNotificationKind(kind: string): kind is NotificationKind {
  return (notificationKinds as readonly string[]).includes(kind);
}

/** The page a notification opens; null when it names no module the app has. */
export function notificationPath(notification: { module: string | null; record_id: string | null }): string | null {
  return recordPath(notification.module, notification.record_id);
}

const steps: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
  ["week", 4.35],
  ["month", 12],
  ["year", Infinity],
];

/** "5 dakika önce" / "5 minutes ago"; "şimdi" / "now" within the minute. */
export function timeAgo(iso: string, now: number, language: string | undefined): string {
  const format = new Intl.RelativeTimeFormat(language === "en" ? "en-GB" : "tr-TR", { numeric: "auto" });
  let value = Math.max(0, (now - new Date(iso).getTime()) / 1000);
  if (value < 60) return format.format(0, "second");
  for (const [unit, size] of steps) {
    if (value < size) return format.format(-Math.floor(value), unit);
    value /= size;
  }
  return format.format(-Math.floor(value), "year");
}
