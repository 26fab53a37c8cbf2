import { describe, expect, it } from "vitest";
import type { DealStage } from "@/session/organization-settings-schema.ts";
import type { Deal } from "../api/deals.ts";
import { dealFormSchema, dealValuesOf, emptyDealForm, parseAmount } from "./deal-form.ts";

const stages: DealStage[] = [
  { key: "lead", name: "Aday", probability: 10, outcome: "open" },
  { key: "won", name: "Kazanıldı", probability: 100, outcome: "won" },
  { key: "lost", name: "Kaybedildi", probability: 0, outcome: "lost" },
];

describe("parseAmount", () => {
  it("reads Turkish and plain writing", () => {
    expect(parseAmount("12.500,50")).toBe(12500.5);
    expect(parseAmount("1.250.000")).toBe(1250000);
    expect(parseAmount("12500.50")).toBe(12500.5);
    expect(parseAmount("12,500")).toBe(12500);
    expect(parseAmount("")).toBe(0);
  });
  it("refuses what is not an amount", () => {
    expect(parseAmount("-5")).toBeNull();
    expect(parseAmount("12a")).toBeNull();
    expect(parseAmount("1,2,3,4")).toBeNull();
  });
});

describe("the deal form", () => {
  it("starts at the first open stage in the organization's currency", () => {
    expect(emptyDealForm("EUR", stages)).toMatchObject({ stage: "lead", currency: "EUR", amount: "" });
  });
  it("needs a title, a valid amount and, for a lost stage, a reason", () => {
    const schema = dealFormSchema(stages);
    const result = schema.safeParse({ ...emptyDealForm("TRY", stages), title: " ", amount: "x", stage: "lost" });
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path.join(".")).sort();
    expect(paths).toEqual(["amount", "lost_reason", "title"]);
  });
  it("leaves the probability to the stage when it is empty and the stage changes", () => {
    const before = { stage: "lead" } as Deal;
    const form = { ...emptyDealForm("TRY", stages), title: "Yazılım lisansı", amount: "1.000", stage: "won" };
    expect(dealValuesOf(form, stages, before)).not.toHaveProperty("probability");
    expect(dealValuesOf({ ...form, stage: "lead" }, stages, before)).toMatchObject({ probability: null, amount: 1000 });
    expect(dealValuesOf({ ...form, probability: 40 }, stages)).toMatchObject({ probability: 40 });
  });
  it("sends a lost reason only with a lost stage", () => {
    const form = { ...emptyDealForm("TRY", stages), title: "X", lost_reason: "Fiyat" };
    expect(dealValuesOf(form, stages)).not.toHaveProperty("lost_reason");
    expect(dealValuesOf({ ...form, stage: "lost" }, stages)).toMatchObject({ lost_reason: "Fiyat" });
  });
});
