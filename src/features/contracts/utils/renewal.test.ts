import { describe, expect, it } from "vitest";
import { dayAfter, increasedValue, nextTermDefaults, normalPercent, termEnd } from "./renewal.ts";

describe("increasedValue", () => {
  it("raises a value by a percentage exactly, to the kuruş, as renew_contract does", () => {
    expect(increasedValue("10000.00", "44.38")).toBe("14438.00");
    expect(increasedValue("1234.56", "7.5")).toBe("1327.15"); // 1327.152
    expect(increasedValue("333.33", "33.3333")).toBe("444.44"); // 444.4433
    expect(increasedValue("0.05", "10")).toBe("0.06"); // 0.055 rounds half up
    expect(increasedValue("0.01", "0")).toBe("0.01");
    expect(increasedValue("9999999999999999.99", "1000")).toBe("109999999999999999.89");
    expect(increasedValue("1250,50", "20")).toBe("1500.60");
  });
  it("refuses what the database refuses", () => {
    expect(increasedValue("12.345", "10")).toBeNull();
    expect(increasedValue("-5", "10")).toBeNull();
    expect(increasedValue("100", "-1")).toBeNull();
    expect(increasedValue("100", "1000.01")).toBeNull();
    expect(increasedValue("100", "1.23456")).toBeNull();
    expect(normalPercent("1000")).toBe("1000");
  });
});

describe("next term", () => {
  it("starts the day after the end and runs the renewal term less a day", () => {
    expect(dayAfter("2026-12-31")).toBe("2027-01-01");
    expect(nextTermDefaults("2026-12-31", 12)).toEqual({ start: "2027-01-01", end: "2027-12-31" });
    expect(nextTermDefaults("2027-02-28", 6)).toEqual({ start: "2027-03-01", end: "2027-08-31" });
  });
  it("keeps a month end as PostgreSQL adds months", () => {
    expect(termEnd("2026-01-31", 1)).toBe("2026-02-27"); // 2026-02-28 - 1 day
    expect(termEnd("2028-01-31", 1)).toBe("2028-02-28"); // 2028-02-29 - 1 day
  });
});
