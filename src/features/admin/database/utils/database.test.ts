import { describe, expect, it } from "vitest";
import { formatBytes, formatCount, templateStatus } from "./database.ts";

describe("templateStatus", () => {
  const current = { provisioned: true, template_version: 3, latest_template_version: 3 };

  it("tells up to date, behind and not provisioned tables apart", () => {
    expect(templateStatus(current)).toBe("upToDate");
    expect(templateStatus({ ...current, template_version: 2 })).toBe("needsUpgrade");
    expect(templateStatus({ ...current, provisioned: false })).toBe("notProvisioned");
    expect(templateStatus({ ...current, template_version: 0 })).toBe("notProvisioned");
  });
});

describe("formatBytes", () => {
  it("uses B, kB and MB with at most one decimal", () => {
    expect(formatBytes(0, "en")).toBe("0 B");
    expect(formatBytes(1023, "en")).toBe("1,023 B");
    expect(formatBytes(8192, "en")).toBe("8 kB");
    expect(formatBytes(24576 + 512, "en")).toBe("24.5 kB");
    expect(formatBytes(5 * 1024 * 1024 + 300 * 1024, "en")).toBe("5.3 MB");
  });

  it("writes the decimal the Turkish way", () => {
    expect(formatBytes(24576 + 512, "tr")).toBe("24,5 kB");
  });
});

describe("formatCount", () => {
  it("groups thousands in the interface's language", () => {
    expect(formatCount(1234567, "tr")).toBe("1.234.567");
    expect(formatCount(1234567, "en")).toBe("1,234,567");
    expect(formatCount(10, "tr")).toBe("10");
  });
});
