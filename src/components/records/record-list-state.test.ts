import { describe, expect, it } from "vitest";
import {
  applyView,
  filterQueries,
  rangeEnds,
  rangeQuery,
  rangeValue,
  recordListArgs,
  recordPageCount,
  viewOf,
  type KnownKeys,
  type RecordListState,
} from "./record-list-state.ts";

const initial: RecordListState = { search: "", filters: {}, sort: "name", descending: false, page: 1, columns: ["name", "city"] };
const known: KnownKeys = {
  columns: new Set(["name", "city", "cf_sektor_kodu"]),
  filters: new Set(["status", "cf_sektor_kodu"]),
  sorts: new Set(["name", "city", "cf_sektor_kodu"]),
};

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
    expect(applyView(viewOf(state), initial, known)).toEqual({ ...state, page: 1 });
    expect(applyView({}, initial, known)).toEqual(initial);
  });

  it("saves and restores a view naming custom fields by their keys", () => {
    const state = { ...initial, filters: { cf_sektor_kodu: "a" }, sort: "cf_sektor_kodu", descending: true, columns: ["name", "cf_sektor_kodu"] };
    expect(viewOf(state)).toEqual({ filters: { cf_sektor_kodu: "a" }, sort: "cf_sektor_kodu", descending: true, columns: ["name", "cf_sektor_kodu"] });
    expect(applyView(viewOf(state), initial, known)).toEqual(state);
  });

  it("opens a view naming a custom field deleted since without it", () => {
    const view = { filters: { cf_gone: "x", status: "active" }, sort: "cf_gone", descending: true, columns: ["cf_gone", "city"] };
    expect(applyView(view, initial, known)).toEqual({ ...initial, filters: { status: "active" }, columns: ["city"] });
    // A view of deleted columns only falls back to the list's default columns.
    expect(applyView({ columns: ["cf_gone"] }, initial, known).columns).toEqual(["name", "city"]);
  });

  it("sends each filter in the shape its type takes", () => {
    const queries = filterQueries([
      { key: "status", label: "Durum", options: [] },
      { key: "cf_aktif", label: "Aktif", options: [], query: (value) => [value === "true"] },
      { key: "cf_bayi_no", label: "Bayi no", range: "number" },
      { key: "cf_acilis", label: "Açılış", range: "date" },
      { key: "cf_bayi", label: "Bayi", picker: { module: "customers", entity: "customer", titleColumn: "name" } },
    ]);
    const filters = { status: "active", cf_aktif: "false", cf_bayi_no: "10~20,5", cf_acilis: "~2026-03-31", cf_bayi: "id-1" };
    expect(recordListArgs({ ...initial, filters }, 25, {}, queries).p_filters).toEqual({
      status: "active",
      cf_aktif: [false],
      cf_bayi_no: { from: 10, to: 20.5 },
      cf_acilis: { to: "2026-03-31" },
      cf_bayi: "id-1",
    });
  });

  it("keeps a range's two ends in one text and drops an unreadable end", () => {
    expect(rangeValue(" 5 ", "")).toBe("5~");
    expect(rangeValue("", " ")).toBe("");
    expect(rangeEnds("5~")).toEqual({ from: "5", to: "" });
    expect(rangeQuery("number", "abc~7")).toEqual({ to: 7 });
    expect(rangeQuery("date", "31.12.2026~2027-01-05")).toEqual({ to: "2027-01-05" });
  });

  it("counts pages up to the cap", () => {
    expect(recordPageCount(0, 25)).toBe(1);
    expect(recordPageCount(51, 25)).toBe(3);
    expect(recordPageCount(10_000, 25)).toBe(400);
  });
});
