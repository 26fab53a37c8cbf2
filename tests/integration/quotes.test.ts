/**
 * Quotes through supabase-js on the local stack (issue 13): a quote saved with its lines
 * (numbered, totals from SQL as decimal strings), previewed, sent (then locked: a save is
 * refused), revised into a new draft with the same number, sent and accepted with its deal
 * marked won; acme's admin (and coklu@ bound to acme) find none of it; a sales member
 * cannot change products.
 */
import { describe, expect, inject, it } from "vitest";
import { acmeOrganizationId, demoPassword, rpc, signedInClient } from "../support/clients.ts";

const url = inject("stackUrl");

const lines = [
  { description: "Yazılım Danışmanlığı", quantity: "10", unit: "saat", unit_price: "2500", vat_rate: 20, discount_type: "percent", discount_value: "10" },
  { description: "İhracat Paketi Hizmeti", quantity: "1", unit: "paket", unit_price: "9500.00", vat_rate: 0, vat_exemption_reason: "İhracat istisnası" },
];

describe("quotes through supabase-js", () => {
  it("saves, sends, refuses a locked save, revises and accepts with the deal won; other organizations find nothing", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const deals = await rpc(client, "list_deals", { p_filters: { stage: ["lead", "qualified", "proposal", "negotiation"], owner_id: "me" }, p_limit: 1 });
    const deal = (deals.records as { id: string; customer_id: string }[])[0];
    expect(deal).toBeDefined();
    const header = { customer_id: deal.customer_id, deal_id: deal.id, document_discount_type: "amount", document_discount_value: "500" };

    const preview = await rpc(client, "preview_quote_totals", { p_values: header, p_items: lines });
    expect(preview).toMatchObject({
      success: true,
      totals: { gross_total: "34500.00", line_discount_total: "2500.00", document_discount_total: "500.00", net_total: "31500.00" },
    });

    const saved = await rpc(client, "save_quote", { p_id: null, p_values: header, p_items: lines });
    expect(saved).toMatchObject({ success: true });
    expect(saved.quote_number).toMatch(/^TKL-\d{4}-\d{5}$/);
    const id = saved.id as string;

    const details = await rpc(client, "get_quote_details", { p_id: id });
    expect(details).toMatchObject({
      success: true,
      quote: { status: "draft", locked: false, quote_number: saved.quote_number, revision: 1 },
      totals: preview.totals,
      deal: { id: deal.id },
    });
    // KDV per rate: the 20 % line after its share of the document discount, the exempt line.
    const breakdown = (details.totals as { vat_breakdown: { rate: number; base: string; vat: string }[] }).vat_breakdown;
    expect(breakdown.map((entry) => [entry.rate, entry.base, entry.vat])).toEqual([
      [0, "9351.56", "0.00"],
      [20, "22148.44", "4429.69"],
    ]);

    const sent = await rpc(client, "send_quote", { p_id: id, p_updated_at: saved.updated_at });
    expect(sent).toMatchObject({ success: true, status: "sent" });
    expect(await rpc(client, "save_quote", { p_id: id, p_values: { notes: "geç" }, p_items: lines, p_updated_at: sent.updated_at }))
      .toMatchObject({ success: false, code: "quote_locked" });

    const revised = await rpc(client, "revise_quote", { p_id: id });
    expect(revised).toMatchObject({ success: true });
    const revision = await rpc(client, "get_quote_details", { p_id: revised.id as string });
    expect(revision).toMatchObject({ quote: { status: "draft", revision: 2, quote_number: saved.quote_number, root_quote_id: id } });
    expect((revision.revisions as { id: string }[]).map((entry) => entry.id)).toEqual([id, revised.id]);
    // The old revision is history: superseded (its updated_at moved with the revision).
    const old = await rpc(client, "get_quote_details", { p_id: id });
    expect(old).toMatchObject({ quote: { locked: true, superseded_by: revised.id } });
    const oldUpdatedAt = (old.quote as { updated_at: string }).updated_at;
    expect(await rpc(client, "accept_quote", { p_id: id, p_updated_at: oldUpdatedAt })).toMatchObject({
      success: false,
      code: "quote_superseded",
    });

    const resent = await rpc(client, "send_quote", {
      p_id: revised.id as string,
      p_updated_at: (revision.quote as { updated_at: string }).updated_at,
    });
    const accepted = await rpc(client, "accept_quote", { p_id: revised.id as string, p_updated_at: resent.updated_at, p_mark_deal_won: true });
    expect(accepted).toMatchObject({ success: true, status: "accepted", deal_won: true });
    expect(await rpc(client, "get_deal", { p_id: deal.id })).toMatchObject({ record: { stage: "won" } });

    for (const email of ["admin@acme.test", "coklu@demo.test"]) {
      const { client: other } = await signedInClient(url, email, demoPassword, { organization: acmeOrganizationId });
      expect(await rpc(other, "get_quote_details", { p_id: id })).toMatchObject({ success: false, code: "not_found" });
      expect(await rpc(other, "save_quote", { p_id: revised.id as string, p_values: {}, p_items: [], p_updated_at: accepted.updated_at }))
        .toMatchObject({ success: false });
      const listed = await rpc(other, "list_quotes", { p_search: saved.quote_number as string });
      expect(listed).toMatchObject({ success: true, total: 0 });
    }
  });

  it("lists products for quote lines; only quotes editors with scope all change them", async () => {
    const { client: sales } = await signedInClient(url, "satis@demo.test");
    const products = await rpc(sales, "list_products", { p_search: "DANIŞMAN" });
    expect(products).toMatchObject({ success: true });
    expect((products.products as { name: string; unit_price: string }[])[0]).toMatchObject({
      name: "Yazılım Danışmanlığı",
      unit_price: "2500.0000",
    });
    expect(await rpc(sales, "save_product", { p_id: null, p_values: { name: "Satışçı ürünü" } })).toMatchObject({
      success: false,
      code: "permission_denied",
    });
  });
});
