import type { tr } from "./tr.ts";

/** English texts of the notifications, typed against the Turkish ones. */
export const en: typeof tr = {
  notifications: {
    title: "Notifications",
    bell: "Notifications",
    bellUnread: "Notifications, {{count}} unread",
    listLabel: "Notification list",
    unread: "New",
    empty: "You have no notifications yet.",
    loadError: "The notifications could not be loaded.",
    markAllRead: "Mark all as read",
    markFailed: "The notifications could not be marked as read",
    older: "Older notifications",
    kinds: {
      task_assigned: "A task was assigned to you",
      task_due: "A task is due within the hour",
      task_overdue: "A task is overdue",
      task_reminder: "Task reminder",
      deal_assigned: "A deal was assigned to you",
      customer_assigned: "A customer was assigned to you",
      contract_renewal: "A contract is due for renewal",
      other: "Notification",
    },
    preferences: {
      open: "Notification preferences",
      title: "Notification preferences",
      label: "Notifications you want",
      description: "Your choice applies to this company only.",
      none: "None chosen: you will get no notifications from this company.",
      saved: "Your notification preferences were saved.",
      failed: "The preferences could not be saved",
      loadError: "The notification preferences could not be loaded.",
      emailDigest: "E-mail digest",
      emailDigestHint: "Also send your unread notifications to your e-mail: at most one digest an hour.",
      kinds: {
        task_assigned: "When a task is assigned to me",
        task_due: "When my task is due (an hour before)",
        task_overdue: "When my task is overdue",
        task_reminder: "My task reminders",
        deal_assigned: "When a deal is assigned to me",
        customer_assigned: "When a customer is assigned to me",
        contract_renewal: "When a contract is due for renewal",
      },
    },
  },
};
