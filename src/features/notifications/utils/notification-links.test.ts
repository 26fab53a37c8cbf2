import { describe, expect, it } from "vitest";
import { isNotificationKind, notificationPath, timeAgo } from "./notification-links.ts";

const id = "c0000000-0000-4000-8000-000000000001";

describe("notification links", () => {
  it("opens the record's page: task, deal, customer, contact, contract (a renewal notice), quote, document", () => {
    expect(notificationPath({ module: "tasks", record_id: id })).toBe(`/tasks/${id}`);
    expect(notificationPath({ module: "deals", record_id: id })).toBe(`/deals/${id}`);
    expect(notificationPath({ module: "customers", record_id: id })).toBe(`/customers/${id}`);
    expect(notificationPath({ module: "contacts", record_id: id })).toBe(`/contacts/${id}`);
    expect(notificationPath({ module: "contracts", record_id: id })).toBe(`/contracts/${id}`);
    expect(notificationPath({ module: "quotes", record_id: id })).toBe(`/quotes/${id}`);
    expect(notificationPath({ module: "documents", record_id: id })).toBe(`/documents/${id}`);
  });

  it("opens the module's list when no record is named", () => {
    expect(notificationPath({ module: "tasks", record_id: null })).toBe("/tasks");
  });

  it("opens nothing for a module the app does not have", () => {
    expect(notificationPath({ module: null, record_id: id })).toBeNull();
    expect(notificationPath({ module: "invoices", record_id: id })).toBeNull();
  });

  it("knows the kinds the database makes", () => {
    expect(isNotificationKind("task_overdue")).toBe(true);
    expect(isNotificationKind("birthday")).toBe(false);
  });

  it("says how long ago, in the interface's language", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    expect(timeAgo("2026-11-23T11:59:30Z", now, "tr")).toBe("şimdi");
    expect(timeAgo("2026-11-23T11:55:00Z", now, "tr")).toBe("5 dakika önce");
    expect(timeAgo("2026-11-23T09:00:00Z", now, "en")).toBe("3 hours ago");
    expect(timeAgo("2026-11-22T12:00:00Z", now, "en")).toBe("yesterday");
    expect(timeAgo("2026-11-02T12:00:00Z", now, "tr")).toBe("3 hafta önce");
    // A clock a little behind the server's still reads "now".
    expect(timeAgo("2026-11-23T12:00:05Z", now, "en")).toBe("now");
  });
});
