import { describe, expect, it } from "vitest";
import { isCurrentPath } from "./navigation.ts";

describe("isCurrentPath", () => {
  it("marks home only on /", () => {
    expect(isCurrentPath("/", "/")).toBe(true);
    expect(isCurrentPath("/", "/customers")).toBe(false);
  });

  it("marks a module on its list and its detail pages", () => {
    expect(isCurrentPath("/customers", "/customers")).toBe(true);
    expect(isCurrentPath("/customers", "/customers/42")).toBe(true);
  });

  it("does not mark a module whose path is only a prefix of another", () => {
    expect(isCurrentPath("/admin", "/admin-tools")).toBe(false);
    expect(isCurrentPath("/organization-manager", "/organization")).toBe(false);
  });
});
