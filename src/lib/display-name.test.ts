import { describe, expect, it } from "vitest";
import { displayName } from "./display-name.ts";

describe("displayName", () => {
  it("joins first and last name", () => {
    expect(displayName({ email: "admin@demo.test", first_name: "Ayşe", last_name: "Yılmaz" })).toBe("Ayşe Yılmaz");
  });

  it("uses whichever name part is present, trimmed", () => {
    expect(displayName({ email: "a@demo.test", first_name: " Süper ", last_name: null })).toBe("Süper");
    expect(displayName({ email: "a@demo.test", first_name: "", last_name: "Demir" })).toBe("Demir");
  });

  it("falls back to the email address when no name is recorded", () => {
    expect(displayName({ email: "satis@demo.test", first_name: null, last_name: "  " })).toBe("satis@demo.test");
  });
});
