import { describe, expect, it } from "vitest";
import { auditActorName } from "./actions.ts";
import { auditFilterArgs, hasFilters, isInvalidRange } from "./filters.ts";
import { AUDIT_LOG_PAGE_SIZE, nextBeforeId } from "./paging.ts";

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

describe("auditFilterArgs", () => {
  it("sends only the filters that are set, days as the start of the day and the end day whole", () => {
    expect(auditFilterArgs({})).toEqual({});
    expect(auditFilterArgs({ actor: "a-1", action: "", from: null })).toEqual({ p_actor_id: "a-1" });
    const args = auditFilterArgs({ action: "contracts.renew", from: "2026-03-01", to: "2026-03-31" });
    expect(args.p_action).toBe("contracts.renew");
    expect(new Date(args.p_from!).getTime()).toBe(new Date(2026, 2, 1).getTime());
    expect(new Date(args.p_to!).getTime()).toBe(new Date(2026, 3, 1).getTime());
    expect(auditFilterArgs({ from: "not a day" })).toEqual({});
  });

  it("knows a reversed range and whether anything is filtered", () => {
    expect(isInvalidRange({ from: "2026-03-02", to: "2026-03-01" })).toBe(true);
    expect(isInvalidRange({ from: "2026-03-01", to: "2026-03-01" })).toBe(false);
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ to: "2026-03-01" })).toBe(true);
  });
});
