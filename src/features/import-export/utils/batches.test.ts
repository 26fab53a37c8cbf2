import { describe, expect, it } from "vitest";
import { batchesToRun, batchRows, jsonTextBytes, planBatches, resumeMismatch, rowBytes, rowsIn } from "./batches.ts";
import type { PreparedRow } from "./prepare-rows.ts";


const sizes = (count: number, size = 100) => Array.from({ length: count }, () => size);

describe("planBatches", () => {
  it("cuts consecutive rows into batches of at most 1,000 rows, numbered from 0", () => {
    expect(planBatches(sizes(2_500))).toEqual([
      { number: 0, start: 0, end: 1_000 },
      { number: 1, start: 1_000, end: 2_000 },
      { number: 2, start: 2_000, end: 2_500 },
    ]);
    expect(planBatches(sizes(1_000))).toEqual([{ number: 0, start: 0, end: 1_000 }]);
    expect(planBatches([])).toEqual([]);
  });

  it("keeps each batch under the byte budget, a row larger than it alone", () => {
    expect(planBatches([40, 40, 40, 40, 40], 1_000, 100)).toEqual([
      { number: 0, start: 0, end: 2 },
      { number: 1, start: 2, end: 4 },
      { number: 2, start: 4, end: 5 },
    ]);
    expect(planBatches([10, 500, 10], 1_000, 100)).toEqual([
      { number: 0, start: 0, end: 1 },
      { number: 1, start: 1, end: 2 },
      { number: 2, start: 2, end: 3 },
    ]);
  });

  it("plans the same batches for the same rows (a resume numbers them as the first run did)", () => {
    const rows = Array.from({ length: 3_210 }, (_, index) => 50 + (index % 97) * 40);
    expect(planBatches(rows, 1_000, 60_000)).toEqual(planBatches([...rows], 1_000, 60_000));
    const plan = planBatches(rows, 1_000, 60_000);
    expect(rowsIn(plan)).toBe(3_210);
    plan.forEach((batch, index) => {
      expect(batch.number).toBe(index);
      expect(batch.start).toBe(index === 0 ? 0 : plan[index - 1].end);
    });
  });
});

describe("row sizes", () => {
  it("counts a text's bytes as JSON sends it", () => {
    expect(jsonTextBytes("abc")).toBe(5);
    expect(jsonTextBytes("ığü")).toBe(2 + 6);
    expect(jsonTextBytes('a"b\\')).toBe(2 + 6);
    expect(jsonTextBytes("a\nb")).toBe(2 + 2 + 6);
    expect(jsonTextBytes("€")).toBe(5);
    expect(jsonTextBytes("😀")).toBe(6);
  });

  it("counts only the mapped, non-empty cells of a row", () => {
    const columns = [
      { column: 0, field: { key: "name" } },
      { column: 2, field: { key: "city" } },
    ];
    const bare = rowBytes(["", "ignored", " "], columns);
    expect(rowBytes(["Demo", "ignored", ""], columns)).toBe(bare + jsonTextBytes("Demo") + 4 + 4);
    expect(rowBytes(["Demo", "ignored", "İzmir"], columns)).toBe(bare + jsonTextBytes("Demo") + 8 + jsonTextBytes("İzmir") + 8);
  });
});

describe("batch rows", () => {
  const rows: PreparedRow[] = [
    { row: 2, index: 0, values: { name: "A" }, errors: {} },
    { row: 3, index: 1, values: {}, errors: { amount: "invalid_number" } },
    { row: 4, index: 2, values: { name: "A" }, errors: {}, duplicateOf: 2 },
    { row: 5, index: 3, values: { name: "B" }, errors: {} },
  ];

  it("sends the rows of its range the browser found nothing wrong with, by their file row numbers", () => {
    expect(batchRows({ number: 0, start: 0, end: 3 }, rows)).toEqual([{ row: 2, values: { name: "A" } }]);
    expect(batchRows({ number: 1, start: 3, end: 4 }, rows)).toEqual([{ row: 5, values: { name: "B" } }]);
    expect(batchRows({ number: 0, start: 1, end: 3 }, rows)).toEqual([]);
  });
});

describe("resuming", () => {
  const plan = planBatches(sizes(4_500));

  it("goes on from the first batch the server has not applied", () => {
    expect(batchesToRun(plan, []).map((batch) => batch.number)).toEqual([0, 1, 2, 3, 4]);
    expect(batchesToRun(plan, [0, 1]).map((batch) => batch.number)).toEqual([2, 3, 4]);
    expect(batchesToRun(plan, [1, 0, 2, 3, 4])).toEqual([]);
    // A batch lost on the way (applied out of order) is sent again; applied ones never are.
    expect(batchesToRun(plan, [0, 2]).map((batch) => batch.number)).toEqual([1, 3, 4]);
    expect(rowsIn(batchesToRun(plan, [0, 1]))).toBe(2_500);
  });

  it("refuses a file whose rows do not fit the import", () => {
    expect(resumeMismatch(plan, 4_500, { total_rows: 4_500, batches: [0, 1] })).toBeNull();
    expect(resumeMismatch(plan, 4_500, { total_rows: 4_499, batches: [0] })).toBe("rows");
    expect(resumeMismatch(plan, 4_500, { total_rows: 4_500, batches: [0, 5] })).toBe("batches");
    expect(resumeMismatch(plan, 4_500, { total_rows: 4_500, batches: [-1] })).toBe("batches");
  });
});
