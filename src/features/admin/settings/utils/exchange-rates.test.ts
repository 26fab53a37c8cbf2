import { describe, expect, it } from "vitest";
import { ratesOf, ratesProblem, rowsOf } from "./exchange-rates.ts";

describe("exchange rates", () => {
  it("round-trips rows and rates, sorted by code", () => {
    const rows = rowsOf({ USD: 41.2, EUR: 44.9 });
    expect(rows.map((row) => row.currency)).toEqual(["EUR", "USD"]);
    expect(ratesOf(rows)).toEqual({ EUR: 44.9, USD: 41.2 });
  });
  it("finds the first row the server would refuse", () => {
    expect(ratesProblem([{ currency: "usd", rate: 1 }], "TRY")).toEqual({ index: 0, key: "currencyInvalid" });
    expect(ratesProblem([{ currency: "TRY", rate: 1 }], "TRY")).toEqual({ index: 0, key: "currencyDefault" });
    expect(ratesProblem([{ currency: "EUR", rate: 1 }, { currency: "EUR", rate: 2 }], "TRY")).toEqual({ index: 1, key: "currencyTwice" });
    expect(ratesProblem([{ currency: "EUR", rate: 0 }], "TRY")).toEqual({ index: 0, key: "rateInvalid" });
    expect(ratesProblem([{ currency: "EUR", rate: "" }], "TRY")).toEqual({ index: 0, key: "rateInvalid" });
    expect(ratesProblem([{ currency: "EUR", rate: 44.9 }], "TRY")).toBeNull();
  });
});
