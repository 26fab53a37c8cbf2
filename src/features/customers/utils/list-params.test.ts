import { describe, expect, it } from "vitest";
import { customerListArgs, customerPageCount, initialCustomerListState, sortCustomersBy } from "./list-params.ts";

describe("customerListArgs", () => {
  it("sends no search for a blank one and turns the page into an offset", () => {
    expect(customerListArgs({ ...initialCustomerListState, search: "   ", page: 3 })).toEqual({
      p_search: undefined,
      p_sort: "name",
      p_descending: false,
      p_limit: 25,
      p_offset: 50,
    });
  });

  it("trims the search", () => {
    expect(customerListArgs({ ...initialCustomerListState, search: " Işık " }).p_search).toBe("Işık");
  });
});

describe("sortCustomersBy", () => {
  it("sorts by the date newest first and goes back to the first page", () => {
    const sorted = sortCustomersBy({ ...initialCustomerListState, page: 4 }, "created_at");
    expect(sorted).toMatchObject({ sort: "created_at", descending: true, page: 1 });
  });

  it("flips the direction on the same column", () => {
    expect(sortCustomersBy(initialCustomerListState, "name").descending).toBe(true);
  });
});

describe("customerPageCount", () => {
  it("counts at least one page", () => {
    expect(customerPageCount(0)).toBe(1);
    expect(customerPageCount(26)).toBe(2);
  });
});
