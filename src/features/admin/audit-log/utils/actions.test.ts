import { describe, expect, it } from "vitest";
import { en } from "../../i18n/en.ts";
import { tr } from "../../i18n/tr.ts";
import { auditActionKey, auditActionLabel, auditActorName, knownAuditActions } from "./actions.ts";
import { AUDIT_LOG_PAGE_SIZE, nextBeforeId } from "./paging.ts";

describe("auditActionKey", () => {
  it("maps every known action to a catalogue key both languages have", () => {
    for (const action of Object.keys(knownAuditActions)) {
      const key = auditActionKey(action);
      expect(key, action).toBeDefined();
      const leaf = key!.split(".")[2] as keyof typeof tr.auditLog.actions;
      expect(tr.auditLog.actions[leaf], action).toBeTruthy();
      expect(en.auditLog.actions[leaf], action).toBeTruthy();
    }
    expect(auditActionKey("user.locked")).toBe("auditLog.actions.userLocked");
  });

  it("knows nothing else, not even inherited names", () => {
    expect(auditActionKey("template.saved")).toBeUndefined();
    expect(auditActionKey("toString")).toBeUndefined();
  });
});

describe("auditActionLabel", () => {
  it("translates a known action and shows an unknown one raw", () => {
    const translate = (key: string) => `T(${key})`;
    expect(auditActionLabel("session.super_admin_switched", translate)).toBe("T(auditLog.actions.sessionSuperAdminSwitched)");
    expect(auditActionLabel("template.deleted", translate)).toBe("template.deleted");
  });
});

describe("auditActorName", () => {
  const actor = { id: "a", email: "admin@demo.test", first_name: "Ayşe", last_name: "Yılmaz" };

  it("prefers the full name, then the email", () => {
    expect(auditActorName(actor)).toBe("Ayşe Yılmaz");
    expect(auditActorName({ ...actor, last_name: null })).toBe("Ayşe");
    expect(auditActorName({ ...actor, first_name: " ", last_name: null })).toBe("admin@demo.test");
  });

  it("has no name for an entry without an actor", () => {
    expect(auditActorName(null)).toBeUndefined();
    expect(auditActorName({ id: null, email: null, first_name: null, last_name: null })).toBeUndefined();
  });
});

describe("nextBeforeId", () => {
  it("pages before the last entry of a full page, and stops after a short one", () => {
    const full = Array.from({ length: AUDIT_LOG_PAGE_SIZE }, (_, index) => ({ id: 100 - index }));
    expect(nextBeforeId(full)).toBe(100 - AUDIT_LOG_PAGE_SIZE + 1);
    expect(nextBeforeId(full.slice(0, 3))).toBeUndefined();
    expect(nextBeforeId([])).toBeUndefined();
  });
});
