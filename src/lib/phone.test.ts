import { describe, expect, it } from "vitest";
import { formatPhone } from "./phone.ts";

describe("phones as a person reads them", () => {
  it("groups Turkish numbers as +90 and the usual 3-3-2-2 blocks, however they were stored or typed", () => {
    expect(formatPhone("+902242124933")).toBe("+90 224 212 49 33");
    expect(formatPhone("+905321234567")).toBe("+90 532 123 45 67");
    expect(formatPhone("0224 212 49 33")).toBe("+90 224 212 49 33");
    expect(formatPhone("(0212) 555-12-34")).toBe("+90 212 555 12 34");
    expect(formatPhone("00902242124933")).toBe("+90 224 212 49 33");
    // 0850 numbers are grouped 3-3-4, as Türk Telekom writes them.
    expect(formatPhone("+908502220000")).toBe("+90 850 222 0000");
  });

  it("groups international numbers by their own country's rules", () => {
    expect(formatPhone("+4930123456")).toBe("+49 30 123456");
    expect(formatPhone("+12125550123")).toBe("+1 212 555 0123");
    expect(formatPhone("+442079460000")).toBe("+44 20 7946 0000");
    expect(formatPhone("+33142685300")).toBe("+33 1 42 68 53 00");
  });

  it("leaves anything that is not a possible number as it was typed", () => {
    expect(formatPhone("dahili 12")).toBe("dahili 12");
    expect(formatPhone("123")).toBe("123");
    expect(formatPhone("")).toBe("");
    expect(formatPhone(null)).toBeNull();
    expect(formatPhone(undefined)).toBeNull();
  });
});
