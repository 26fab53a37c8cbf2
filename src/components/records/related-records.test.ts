import { describe, expect, it, vi } from "vitest";

// The hooks' RPC client is not needed here (it reads the stack's address at load).
vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));
vi.mock("@/session/organization-scope.ts", () => ({ useOrganizationScope: vi.fn() }));
import { countedLabel, newRecordPath, readRecordLinks, relatedAccess, relatedListArgs, relatedRowSchemas, RELATED_LIMIT } from "./related-records.ts";

const customer = "5f1f0c7e-8c1a-4d55-9a43-6f0e7c1b2a01";
const deal = "0b7e6d0a-1c2d-4e3f-8a9b-0c1d2e3f4a5b";
const contact = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d";

describe("relatedListArgs", () => {
  it("filters the module's list by the link column, first page, the module's order", () => {
    expect(relatedListArgs("deals", { column: "customer_id", id: customer })).toEqual({
      p_filters: { customer_id: customer },
      p_sort: "updated_at",
      p_descending: true,
      p_limit: RELATED_LIMIT,
      p_offset: 0,
    });
    expect(relatedListArgs("tasks", { column: "deal_id", id: deal })).toMatchObject({ p_sort: "due_at", p_descending: false });
  });

  it("a contact's deals: filtered by the contact (the engine reads it through the deal's contacts)", () => {
    expect(relatedListArgs("deals", { column: "contact_id", id: contact }).p_filters).toEqual({ contact_id: contact });
  });

  it("lists only a quote's latest revision (the older ones are its history)", () => {
    expect(relatedListArgs("quotes", { column: "deal_id", id: deal }).p_filters).toEqual({ is_latest: true, deal_id: deal });
  });
});

describe("newRecordPath and readRecordLinks", () => {
  it("opens a module's create form with the links filled in, and reads them back", () => {
    const path = newRecordPath("quotes", { customer_id: customer, contact_id: contact, deal_id: deal });
    expect(path).toBe(`/quotes/new?customer_id=${customer}&contact_id=${contact}&deal_id=${deal}`);
    const params = new URL(path, "http://localhost").searchParams;
    expect(readRecordLinks(params)).toEqual({ customer_id: customer, contact_id: contact, deal_id: deal });
  });

  it("a list page's form opens with ?new=1; links without a value are left out", () => {
    expect(newRecordPath("contacts", { customer_id: customer, deal_id: null, contact_id: undefined })).toBe(`/contacts?new=1&customer_id=${customer}`);
    expect(newRecordPath("tasks", {})).toBe("/tasks?new=1");
  });

  it("reads only record ids, never other text", () => {
    expect(readRecordLinks(new URLSearchParams("customer_id=<script>&deal_id=1 or 1=1&owner_id=" + customer))).toEqual({});
  });
});

describe("relatedAccess", () => {
  it("shows a module's tab only to whoever may view it, its new button only to whoever may create", () => {
    expect(relatedAccess({ quotes: { view: "own", create: "own" } }, "quotes")).toEqual({ canView: true, canCreate: true });
    expect(relatedAccess({ quotes: { view: "all" } }, "quotes")).toEqual({ canView: true, canCreate: false });
    expect(relatedAccess({ quotes: { view: "all" } }, "contracts")).toEqual({ canView: false, canCreate: false });
    expect(relatedAccess(undefined, "deals")).toEqual({ canView: false, canCreate: false });
  });
});

describe("countedLabel", () => {
  const format = (value: number) => new Intl.NumberFormat("tr-TR").format(value);
  it("adds the count once it is known", () => {
    expect(countedLabel("Teklifler", undefined, format)).toBe("Teklifler");
    expect(countedLabel("Teklifler", { total: 3, total_exact: true }, format)).toBe("Teklifler (3)");
    expect(countedLabel("Görevler", { total: 10000, total_exact: false }, format)).toBe("Görevler (10.000+)");
  });
});

describe("relatedRowSchemas", () => {
  it("reads the engine's link names when the answer has them, and rows without them too", () => {
    const base = { id: "q1", owner_id: "u1", owner_name: null, created_at: "2026-01-01", updated_at: "2026-01-01" };
    const named = relatedRowSchemas.quotes.parse({ ...base, quote_number: "T-1", status: "sent", grand_total: 1200.5, deal_name: "Büyük iş" });
    expect(named).toMatchObject({ deal_name: "Büyük iş", grand_total: "1200.5", status: "sent" });
    const plain = relatedRowSchemas.quotes.parse({ ...base, quote_number: null, status: "unknown" });
    expect(plain).toMatchObject({ status: "draft", grand_total: null });
    expect(plain.deal_name).toBeUndefined();
  });
});
