import { describe, expect, it } from "vitest";
import { documentLinkFilter, documentLinkModules, linkedRecordOf } from "./document-links.ts";

describe("linkedRecordOf", () => {
  it("finds the one link column that is set", () => {
    expect(linkedRecordOf({ customer_id: null, deal_id: "d1" })).toEqual({ module: "deals", id: "d1" });
    expect(linkedRecordOf({ contract_id: "c9" })).toEqual({ module: "contracts", id: "c9" });
  });

  it("is null for a document of no record", () => {
    expect(linkedRecordOf({})).toBeNull();
    expect(linkedRecordOf({ customer_id: null, contact_id: null, deal_id: null, quote_id: null, contract_id: null })).toBeNull();
  });

  it("links the five record modules of the contract", () => {
    expect(documentLinkModules).toEqual(["customers", "contacts", "deals", "quotes", "contracts"]);
  });
});

describe("documentLinkFilter", () => {
  it("filters by one record, by any record of a module, or not at all", () => {
    expect(documentLinkFilter("deals", "d1")).toEqual({ deal_id: "d1" });
    expect(documentLinkFilter("customers", null)).toEqual({ customer_id: { is_null: false } });
    expect(documentLinkFilter("", "x" as string)).toEqual({});
    expect(documentLinkFilter(null)).toEqual({});
  });
});
