import { describe, expect, it } from "vitest";
import {
  adminUserKeys,
  initialListState,
  PAGE_SIZE,
  pageCount,
  sortBy,
  userListArgs,
  withFilter,
} from "./list-params.ts";

describe("userListArgs", () => {
  it("asks for the first 25 by name with no filter at first", () => {
    expect(userListArgs(initialListState)).toEqual({
      p_search: null,
      p_role: null,
      p_status: null,
      p_sort: "name",
      p_descending: false,
      p_limit: 25,
      p_offset: 0,
    });
  });

  it("trims the search, keeps the filters and turns the page into an offset", () => {
    const args = userListArgs({ ...initialListState, search: "  ayşe ", role: "sales", status: "locked", page: 3 });
    expect(args).toMatchObject({ p_search: "ayşe", p_role: "sales", p_status: "locked", p_offset: 2 * PAGE_SIZE });
  });

  it("treats a blank search as none and a page below 1 as the first", () => {
    expect(userListArgs({ ...initialListState, search: "   ", page: 0 })).toMatchObject({ p_search: null, p_offset: 0 });
  });
});

describe("sortBy", () => {
  it("flips the direction of the current column and goes back to page 1", () => {
    const sorted = sortBy({ ...initialListState, page: 4 }, "name");
    expect(sorted).toMatchObject({ sort: "name", descending: true, page: 1 });
    expect(sortBy(sorted, "name")).toMatchObject({ descending: false });
  });

  it("sorts text A to Z and dates newest first when the column changes", () => {
    expect(sortBy({ ...initialListState, descending: true }, "email")).toMatchObject({ sort: "email", descending: false });
    expect(sortBy(initialListState, "last_login_at")).toMatchObject({ sort: "last_login_at", descending: true });
  });
});

describe("withFilter and pageCount", () => {
  it("a new filter starts from page 1", () => {
    expect(withFilter({ ...initialListState, page: 5 }, { role: "viewer" })).toMatchObject({ role: "viewer", page: 1 });
  });

  it("counts pages of 25, at least one", () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(25)).toBe(1);
    expect(pageCount(26)).toBe(2);
  });
});

const scope = (sessionUserId: string, organizationId: string) => ({ sessionUserId, organizationId });

describe("adminUserKeys", () => {
  it("start with the signed-in user and the organization, so that one invalidation covers the screen", () => {
    const args = userListArgs(initialListState);
    const all = adminUserKeys.all(scope("me", "org"));
    expect(all).toEqual(["users", "me", "admin-users", "org"]);
    for (const key of [
      adminUserKeys.list(scope("me", "org"), args),
      adminUserKeys.loginAttempts(scope("me", "org"), "u1"),
      adminUserKeys.recordAnalysis(scope("me", "org"), "u1"),
      adminUserKeys.transferCandidates(scope("me", "org"), "u1"),
    ]) {
      expect(key.slice(0, all.length)).toEqual(all);
    }
    expect(adminUserKeys.list(scope("me", "org"), args)).toEqual([...all, "list", args]);
  });

  it("keep organizations and signed-in users apart", () => {
    const args = userListArgs(initialListState);
    expect(adminUserKeys.list(scope("me", "a"), args)).not.toEqual(adminUserKeys.list(scope("me", "b"), args));
    expect(adminUserKeys.list(scope("me", "a"), args)).not.toEqual(adminUserKeys.list(scope("you", "a"), args));
  });
});
