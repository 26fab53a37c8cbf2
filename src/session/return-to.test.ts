import { describe, expect, it } from "vitest";
import { returnPath } from "./return-to.ts";

describe("returnPath", () => {
  it("returns to the remembered in-app path", () => {
    expect(returnPath({ from: "/customers/42?tab=deals" })).toBe("/customers/42?tab=deals");
  });

  it.each([
    ["no state", null],
    ["a state without a path", {}],
    ["a full URL", { from: "https://evil.example/" }],
    ["a protocol-relative URL", { from: "//evil.example/" }],
    ["the login page", { from: "/login" }],
    ["the terms page", { from: "/terms" }],
    ["the organization choice", { from: "/select-organization?x=1" }],
  ])("goes home for %s", (_, state) => {
    expect(returnPath(state)).toBe("/");
  });
});
