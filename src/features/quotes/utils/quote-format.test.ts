import { describe, expect, it } from "vitest";
import { formatAmount, formatDecimal, formatRate } from "./quote-format.ts";

describe("quote amounts on screen", () => {
  it("formats the database's decimal text exactly, in Turkish and English", () => {
    expect(formatAmount("1234.50", "TRY", "tr")).toBe("₺1.234,50");
    expect(formatAmount("1234.5", "EUR", "en")).toBe("€1,234.50");
    expect(formatAmount("12345678901234567.89", "TRY", "en")).toBe("₺12,345,678,901,234,567.89");
    expect(formatAmount(null, "TRY", "tr")).toBe("—");
  });
  it("writes rates the way each language does", () => {
    expect(formatRate("20.00", "tr")).toBe("%20");
    expect(formatRate("20", "en")).toBe("20%");
    expect(formatDecimal("1.5000", "tr")).toBe("1,5");
  });
});
