import { describe, expect, it } from "vitest";
import { queryKeys } from "./query-keys.ts";

const startsWith = (key: readonly unknown[], prefix: readonly unknown[]) =>
  JSON.stringify(key.slice(0, prefix.length)) === JSON.stringify(prefix);

describe("queryKeys", () => {
  const scope = { sessionUserId: "me", organizationId: "org" };

  it("put every key under the signed-in user, so one removal drops all of it", () => {
    for (const key of [
      queryKeys.currentUserContext("me"),
      queryKeys.myOrganizations("me"),
      queryKeys.organizationLogo("me"),
      queryKeys.modulePermissions("me"),
      queryKeys.organization(scope, "customers"),
    ]) {
      expect(startsWith(key, queryKeys.user("me"))).toBe(true);
    }
  });

  it("keep organizations, users and areas apart", () => {
    expect(queryKeys.organization(scope, "customers")).toEqual(["users", "me", "customers", "org"]);
    expect(queryKeys.organization(scope, "customers")).not.toEqual(queryKeys.organization({ ...scope, organizationId: "b" }, "customers"));
    expect(queryKeys.organization(scope, "customers")).not.toEqual(queryKeys.organization({ ...scope, sessionUserId: "you" }, "customers"));
    // Invalidating the organization choices must not also reach an organization's data.
    expect(startsWith(queryKeys.organization(scope, "audit-log"), queryKeys.myOrganizations("me"))).toBe(false);
  });
});
