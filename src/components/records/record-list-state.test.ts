import { describe, expect, it } from "vitest";
import { applyView, recordListArgs, recordPageCount, viewOf, type RecordListState } from "./record-list-state.ts";

const initial: RecordListState = { search: "", filters: {}, sort: "name", descending: false, page: 1, columns: ["name", "city"] };

describe("record list state", () => {
  it("asks for a page without blank search or filters", () => {
    expect(recordListArgs({ ...initial, search: "  ", filters: { status: "", kind: "person" }, page: 3 }, 25)).toEqual({
      p_filters: { kind: "person" },
      p_sort: "name",
      p_descending: false,
      p_limit: 25,
      p_offset: 50,
    });
    expect(recordListArgs({ ...initial, search: " ışık " }, 25).p_search).toBe("ışık");
  });

  it("adds the page's fixed filters over the person's", () => {
    const base = { customer_id: { is_null: false } };
    expect(recordListArgs({ ...initial, filters: { mime_type: "application/pdf", customer_id: "x" } }, 25, base).p_filters).toEqual({
      mime_type: "application/pdf",
      customer_id: { is_null: false },
    });
  });

  it("saves and applies a view", () => {
    const state = { ...initial, search: "abc", filters: { status: "active" }, sort: "city", descending: true, page: 4, columns: ["name"] };
    expect(applyView(viewOf(state), initial)).toEqual({ ...state, page: 1 });
    expect(applyView({}, initial)).toEqual(initial);
  });

  it("counts pages up to the cap", () => {
    expect(recordPageCount(0, 25)).toBe(1);
    expect(recordPageCount(51, 25)).toBe(3);
    expect(recordPageCount(10_000, 25)).toBe(400);
  });
});
