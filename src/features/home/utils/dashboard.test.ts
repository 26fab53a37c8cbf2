import { describe, expect, it } from "vitest";
import { forecastRows, monthLabel, pipelineRows, unconvertedCurrencies } from "./dashboard.ts";

const summary = (count: number, amount: number, totals: { currency: string; amount: number }[] = [], unconverted: string[] = []) => ({
  count,
  amount,
  totals,
  unconverted,
});

describe("dashboard numbers", () => {
  it("lists the open stages in order with the amount converted and other currencies beside", () => {
    expect(
      pipelineRows(
        [
          { key: "lead", name: "Aday", probability: 10, ...summary(2, 500, [{ currency: "TRY", amount: 100 }, { currency: "USD", amount: 10 }]) },
          { key: "qualified", name: null, probability: 25, ...summary(0, 0) },
        ],
        "TRY",
      ),
    ).toEqual([
      { key: "lead", stage: "Aday", count: 2, amount: 500, others: [{ currency: "USD", amount: 10 }] },
      { key: "qualified", stage: "qualified", count: 0, amount: 0, others: [] },
    ]);
    expect(pipelineRows(null, "TRY")).toEqual([]);
  });

  it("gathers the currencies without a rate once", () => {
    expect(unconvertedCurrencies([summary(1, 0, [], ["EUR"]), summary(1, 0, [], ["GBP", "EUR"]), summary(0, 0)])).toEqual(["EUR", "GBP"]);
  });

  it("names the forecast's months in the interface's language", () => {
    expect(monthLabel("2026-11", "tr")).toBe("Kas 2026");
    expect(monthLabel("2027-01", "en")).toBe("Jan 2027");
    const rows = forecastRows(
      { currency: "TRY", total: { count: 1, amount: 100, weighted: 25, months: [{ month: "2026-12", count: 1, amount: 100, weighted: 25 }], unconverted: [] } },
      "en",
    );
    expect(rows).toEqual([{ month: "2026-12", label: "Dec 2026", count: 1, amount: 100, weighted: 25 }]);
  });
});
