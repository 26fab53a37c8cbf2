import { describe, expect, it } from "vitest";
import { anyKindChosen, defaultTransferOptions, transferRequest } from "./transfer.ts";
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

  it("become the function's transfer request with every kind spelled out", () => {
    expect(transferRequest("from", "to", { ...defaultTransferOptions, quotes: true, tasks: false })).toEqual({
      action: "transfer",
      from_user_id: "from",
      to_user_id: "to",
      transfer_deals: true,
      transfer_customers: true,
      transfer_tasks: false,
      transfer_contracts: false,
      transfer_quotes: true,
      transfer_templates: false,
    });
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
