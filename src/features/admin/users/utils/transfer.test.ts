import { describe, expect, it } from "vitest";
import { anyKindChosen, defaultTransferOptions, transferOptionsOf, transferRequest } from "./transfer.ts";
import { userStatus } from "./user-status.ts";

describe("transfer options", () => {
  it("default to the spec's choice: deals, customers and tasks only", () => {
    expect(defaultTransferOptions).toEqual({
      deals: true,
      customers: true,
      tasks: true,
      contracts: false,
      quotes: false,
      templates: false,
    });
  });

  it("become the function's transfer request naming every chosen kind", () => {
    expect(transferRequest("from", "to", { ...defaultTransferOptions, quotes: true, tasks: false })).toEqual({
      action: "transfer",
      from_user_id: "from",
      to_user_id: "to",
      kinds: ["deals", "customers", "quotes"],
    });
    expect(transferRequest("from", "to", transferOptionsOf([])).kinds).toEqual([]);
  });

  it("need at least one kind", () => {
    expect(anyKindChosen(defaultTransferOptions)).toBe(true);
    expect(
      anyKindChosen({ deals: false, customers: false, tasks: false, contracts: false, quotes: false, templates: false }),
    ).toBe(false);
  });
});

describe("userStatus", () => {
  it("shows a lock first, then an account or membership switched off", () => {
    expect(userStatus({ locked: true, is_active: false, membership_active: true })).toBe("locked");
    expect(userStatus({ locked: false, is_active: false, membership_active: true })).toBe("inactive");
    expect(userStatus({ locked: false, is_active: true, membership_active: false })).toBe("inactive");
    expect(userStatus({ locked: false, is_active: true, membership_active: true })).toBe("active");
  });
});
