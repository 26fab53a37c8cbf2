/** A quote's save (save_quote with its lines), the record form's own save for the quote editor. */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { rpc } from "@/lib/call-rpc.ts";
import { saveQuote, type QuoteItemValues } from "./quotes.ts";

vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));

const item: QuoteItemValues = {
  position: 1,
  product_id: null,
  description: "Danışmanlık",
  quantity: "2",
  unit: "saat",
  unit_price: "1000.50",
  discount_type: "percent",
  discount_value: "0",
  vat_rate: "20",
  vat_exemption_reason: null,
  withholding_rate: null,
};

describe("saveQuote", () => {
  beforeEach(() => vi.mocked(rpc).mockReset());

  it("creates a quote without an id or version, and changes a draft at the version read", async () => {
    const saved = { id: "q1", updated_at: "2026-11-28T10:00:00Z", quote_number: "TKL-2026-0001" };
    vi.mocked(rpc).mockResolvedValue(saved);
    await expect(saveQuote({ notes: "x" }, [item], undefined)).resolves.toEqual(saved);
    expect(rpc).toHaveBeenLastCalledWith(
      "save_quote",
      { p_id: null, p_values: { notes: "x" }, p_items: [item], p_updated_at: null },
      expect.anything(),
    );
    await saveQuote({ notes: "y" }, [item], saved);
    expect(rpc).toHaveBeenLastCalledWith(
      "save_quote",
      { p_id: "q1", p_values: { notes: "y" }, p_items: [item], p_updated_at: saved.updated_at },
      expect.anything(),
    );
  });
});
