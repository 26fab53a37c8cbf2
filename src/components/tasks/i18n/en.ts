import type { tr } from "./tr.ts";

/** English texts of the shared task pieces, typed against the Turkish ones. */
export const en: typeof tr = {
  taskKit: {
    statuses: {
      open: "Open",
      in_progress: "In progress",
      done: "Done",
      cancelled: "Cancelled",
    },
    priorities: {
      low: "Low",
      normal: "Normal",
      high: "High",
      urgent: "Urgent",
    },
    types: {
      call: "Call",
      meeting: "Meeting",
      email: "Email",
      visit: "Visit",
      other: "Other",
    },
    overdue: "Overdue",
    noDueDate: "No date",
    completeTask: "Complete “{{title}}”",
    reopenTask: "Reopen “{{title}}”",
    completed: "“{{title}}” is done.",
    reopened: "“{{title}}” is open again.",
    completeFailed: "The task could not be completed",
    reopenFailed: "The task could not be reopened",
    stale: "The task changed while you were looking. The list was refreshed; try again.",
  },
};
