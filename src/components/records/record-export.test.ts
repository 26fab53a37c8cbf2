import { beforeEach, describe, expect, it, vi } from "vitest";
import { writeCsv } from "@/lib/spreadsheet/write.ts";
import { writeXlsxFile } from "@/lib/spreadsheet/write-client.ts";
import type { RecordColumn } from "./record-config.ts";
import {
  EXPORT_PAGE_SIZE,
  EXPORT_ROW_LIMIT,
  exportFileName,
  exportPlan,
  exportTable,
  fetchExportRows,
  writeExport,
  type ExportPage,
  type ExportRecordsArgs,
  type RecordExportSource,
} from "./record-export.ts";

// The spreadsheet library is another piece's: here only what the export hands it counts.
vi.mock("@/lib/spreadsheet/write.ts", () => ({ writeCsv: vi.fn() }));
vi.mock("@/lib/spreadsheet/write-client.ts", () => ({ writeXlsxFile: vi.fn() }));

interface Row {
  id: string;
  name: string;
  status: "lead" | "active";
  amount: number | string | null;
  currency: string;
  close_date: string | null;
  tags: string[];
  updated_at: string;
  customer_id: string | null;
}

const labels = { lead: "Aday", active: "Aktif" };
const columns: RecordColumn<Row>[] = [
  { key: "name", label: "Ad", sort: "name" },
  { key: "status", label: "Durum", exportValue: (row) => labels[row.status] },
  { key: "amount", label: "Tutar", exportType: "money", currencyColumn: "currency" },
  { key: "close_date", label: "Kapanış", exportType: "date" },
  { key: "updated_at", label: "Güncellenme" },
  { key: "currency", label: "Para birimi", hidden: true },
  { key: "tags", label: "Etiketler", hidden: true },
];
const source: RecordExportSource<Row> = {
  columns,
  view: { search: "ışık", filters: { status: "active", is_latest: true }, sort: "amount", descending: true, columns: ["status", "amount"] },
  definingFilters: { is_latest: true },
};
const row: Row = {
  id: "c0ffee00-0000-4000-8000-000000000001",
  name: "=HYPERLINK(\"x\")",
  status: "active",
  amount: "1250.50",
  currency: "EUR",
  close_date: "2026-12-31",
  tags: ["vip", "istanbul"],
  updated_at: "2026-11-23T09:30:00Z",
  customer_id: "c1",
};
const signal = () => new AbortController().signal;

describe("export plan", () => {
  it("exports the view: its search, filters and order, the title column and the chosen ones, each amount with its currency", () => {
    const plan = exportPlan(source, "view");
    expect(plan.query).toEqual({ search: "ışık", filters: { status: "active", is_latest: true }, sort: "amount", descending: true });
    expect(plan.columns.map((column) => column.key)).toEqual(["name", "status", "amount", "currency"]);
  });

  it("keeps a chosen currency column where it is, once", () => {
    const plan = exportPlan({ ...source, view: { ...source.view, columns: ["currency", "amount"] } }, "view");
    expect(plan.columns.map((column) => column.key)).toEqual(["name", "amount", "currency"]);
  });

  it("exports everything: no search, only the defining filters, every column", () => {
    const plan = exportPlan(source, "all");
    expect(plan.query).toEqual({ filters: { is_latest: true }, sort: "amount", descending: true });
    expect(plan.columns).toEqual(columns);
    expect(exportPlan({ ...source, definingFilters: undefined }, "all").query.filters).toEqual({});
  });
});

describe("export table", () => {
  it("puts the id first under ID and each column under the list's header, with its type", async () => {
    const table = exportTable(columns, [row]);
    expect(table.columns).toEqual([
      { header: "ID", type: "text" },
      { header: "Ad", type: "text" },
      { header: "Durum", type: "text" },
      { header: "Tutar", type: "money" },
      { header: "Kapanış", type: "date" },
      { header: "Güncellenme", type: "datetime" },
      { header: "Para birimi", type: "text" },
      { header: "Etiketler", type: "text" },
    ]);
  });

  it("writes labels, numbers, dates and joined tags, never the screen's markup", async () => {
    const [cells] = exportTable(columns, [row]).rows;
    expect(cells.slice(0, 4)).toEqual([row.id, "=HYPERLINK(\"x\")", "Aktif", 1250.5]);
    const [date, instant] = cells.slice(4, 6) as Date[];
    expect(date).toBeInstanceOf(Date);
    expect([date.getFullYear(), date.getMonth(), date.getDate(), date.getHours()]).toEqual([2026, 11, 31, 0]);
    expect(instant.toISOString()).toBe("2026-11-23T09:30:00.000Z");
    expect(cells.slice(6)).toEqual(["EUR", "vip, istanbul"]);
  });

  it("leaves empty values empty and keeps a value that is not what its type expects as text", async () => {
    const [cells] = exportTable(columns, [{ ...row, amount: "çok", close_date: null, tags: [], updated_at: "dün" }]).rows;
    expect(cells.slice(3)).toEqual(["çok", null, "dün", "EUR", null]);
    const [empty] = exportTable(columns, [{ ...row, amount: null, name: "" }]).rows;
    expect(empty[1]).toBeNull();
    expect(empty[3]).toBeNull();
  });
});

describe("export pages", () => {
  const rowsOf = (from: number, count: number) =>
    Array.from({ length: count }, (_, index) => ({ ...row, id: `r${from + index}` }));
  /** Where a fake server's page starts: its own cursor (the row after which), handed back by the loop. */
  const startOf = (args: ExportRecordsArgs) => (args.p_cursor === null ? 0 : Number((args.p_cursor as { after: string }).after.slice(1)) + 1);
  /** A server of `total` rows, answering pages as export_records does: the next page after the last row's cursor. */
  const server = (total: number, exact = true) =>
    vi.fn(async (args: ExportRecordsArgs): Promise<ExportPage<Row>> => {
      const start = startOf(args);
      const count = Math.max(0, Math.min(args.p_limit, total - start));
      const next = start + count;
      return {
        records: rowsOf(start, count),
        total: exact ? total : Math.min(total, 10_000),
        total_exact: exact,
        next_cursor: next < total ? { after: `r${next - 1}` } : null,
      };
    });

  it("asks page after page after the last page's next_cursor until it is null, with the query", async () => {
    const fetchPage = server(12_000);
    const progress = vi.fn();
    const result = await fetchExportRows("customers", exportPlan(source, "view").query, fetchPage, { signal: signal(), onProgress: progress });
    expect(result.rows).toHaveLength(12_000);
    expect(result.capped).toBe(false);
    expect(fetchPage.mock.calls.map(([args]) => [args.p_cursor, args.p_limit])).toEqual([
      [null, EXPORT_PAGE_SIZE],
      [{ after: "r4999" }, EXPORT_PAGE_SIZE],
      [{ after: "r9999" }, EXPORT_PAGE_SIZE],
    ]);
    expect(fetchPage.mock.calls[0][0]).toEqual({
      p_module: "customers",
      p_search: "ışık",
      p_filters: { status: "active", is_latest: true },
      p_sort: "amount",
      p_descending: true,
      p_cursor: null,
      p_limit: EXPORT_PAGE_SIZE,
    });
    expect(progress).toHaveBeenLastCalledWith({ fetched: 12_000, expected: 12_000, capped: false });
    expect(progress.mock.calls[0][0]).toEqual({ fetched: 5_000, expected: 12_000, capped: false });
  });

  it("does not send an absent search", async () => {
    const fetchPage = server(3);
    await fetchExportRows("customers", exportPlan(source, "all").query, fetchPage, { signal: signal() });
    expect(fetchPage.mock.calls[0][0]).not.toHaveProperty("p_search");
  });

  it("has no expected count while the total is not exact", async () => {
    const progress = vi.fn();
    await fetchExportRows("customers", { filters: {}, sort: "name", descending: false }, server(12_000, false), {
      signal: signal(),
      onProgress: progress,
    });
    expect(progress.mock.calls[0][0]).toEqual({ fetched: 5_000, expected: null, capped: false });
  });

  it("stops at the row limit and says the export is capped", async () => {
    const fetchPage = server(EXPORT_ROW_LIMIT + 1);
    const progress = vi.fn();
    const result = await fetchExportRows("customers", { filters: {}, sort: "name", descending: false }, fetchPage, {
      signal: signal(),
      onProgress: progress,
    });
    expect(result.rows).toHaveLength(EXPORT_ROW_LIMIT);
    expect(result.rows.at(-1)?.id).toBe(`r${EXPORT_ROW_LIMIT - 1}`);
    expect(result.capped).toBe(true);
    expect(fetchPage).toHaveBeenCalledTimes(EXPORT_ROW_LIMIT / EXPORT_PAGE_SIZE);
    expect(progress.mock.calls[0][0]).toEqual({ fetched: 5_000, expected: EXPORT_ROW_LIMIT, capped: true });
  });

  it("asks only for what is left under a smaller limit, and is not capped when nothing is left", async () => {
    const fetchPage = server(7_000);
    const result = await fetchExportRows("customers", { filters: {}, sort: "name", descending: false }, fetchPage, { signal: signal(), limit: 7_000 });
    expect(fetchPage.mock.calls.map(([args]) => args.p_limit)).toEqual([5_000, 2_000]);
    expect(result).toMatchObject({ capped: false });
    expect(result.rows).toHaveLength(7_000);
  });

  it("keeps a record a later page repeats once, and ends on a page that adds nothing", async () => {
    const fetchPage = vi
      .fn<(args: ExportRecordsArgs) => Promise<ExportPage<Row>>>()
      .mockResolvedValueOnce({ records: rowsOf(0, 3), total: 5, total_exact: true, next_cursor: { after: "r2" } })
      .mockResolvedValueOnce({ records: rowsOf(2, 3), total: 5, total_exact: true, next_cursor: { after: "r4" } })
      .mockResolvedValueOnce({ records: rowsOf(3, 2), total: 5, total_exact: true, next_cursor: { after: "r4" } });
    const result = await fetchExportRows("customers", { filters: {}, sort: "name", descending: false }, fetchPage, { signal: signal() });
    expect(result.rows.map((each) => each.id)).toEqual(["r0", "r1", "r2", "r3", "r4"]);
    expect(fetchPage).toHaveBeenCalledTimes(3);
  });

  it("stops fetching when cancelled, and fails with the cancellation", async () => {
    const controller = new AbortController();
    const fetchPage = server(20_000);
    const progress = vi.fn(() => controller.abort());
    const running = fetchExportRows("customers", { filters: {}, sort: "name", descending: false }, fetchPage, {
      signal: controller.signal,
      onProgress: progress,
    });
    await expect(running).rejects.toMatchObject({ name: "AbortError" });
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it("drops a page that arrives after the cancel", async () => {
    const controller = new AbortController();
    const fetchPage = vi.fn(async (args: ExportRecordsArgs): Promise<ExportPage<Row>> => {
      controller.abort();
      return { records: rowsOf(startOf(args), 1), total: 2, total_exact: true, next_cursor: { after: "r0" } };
    });
    const progress = vi.fn();
    await expect(
      fetchExportRows("customers", { filters: {}, sort: "name", descending: false }, fetchPage, { signal: controller.signal, onProgress: progress }),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(progress).not.toHaveBeenCalled();
  });

  it("passes a refusal on without going further", async () => {
    const refusal = new Error("refused");
    const fetchPage = vi.fn().mockRejectedValue(refusal);
    await expect(fetchExportRows("customers", { filters: {}, sort: "name", descending: false }, fetchPage, { signal: signal() })).rejects.toBe(
      refusal,
    );
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });
});

describe("export file", () => {
  beforeEach(() => {
    vi.mocked(writeCsv).mockReset();
    vi.mocked(writeXlsxFile).mockReset();
  });

  it("writes Excel with the module's sheet, or CSV", async () => {
    const table = exportTable(columns.slice(0, 2), [row]);
    const xlsx = new Blob(["xlsx"]);
    const csv = new Blob(["csv"]);
    vi.mocked(writeXlsxFile).mockResolvedValue(xlsx);
    vi.mocked(writeCsv).mockReturnValue(csv);
    await expect(writeExport("xlsx", table, "Müşteriler")).resolves.toBe(xlsx);
    expect(writeXlsxFile).toHaveBeenCalledWith(table.columns, table.rows, "Müşteriler");
    await expect(writeExport("csv", table, "Müşteriler")).resolves.toBe(csv);
    expect(writeCsv).toHaveBeenCalledWith(table.columns, table.rows);
    expect(writeXlsxFile).toHaveBeenCalledTimes(1);
  });

  it("names the file after the module's title folded to ASCII and the local date", () => {
    const day = new Date(2026, 10, 23, 23, 59);
    expect(exportFileName("Müşteriler", "xlsx", day)).toBe("musteriler-2026-11-23.xlsx");
    expect(exportFileName("Sözleşmeler", "csv", day)).toBe("sozlesmeler-2026-11-23.csv");
    expect(exportFileName("İş Fırsatları / Çağrı", "csv", new Date(2027, 0, 5))).toBe("is-firsatlari-cagri-2027-01-05.csv");
    expect(exportFileName("Contacts", "xlsx", day)).toBe("contacts-2026-11-23.xlsx");
  });
});
