/**
 * Import and export through supabase-js on the local stack (issue 14): an import of
 * customers previewed, run in batches (a repeated batch changes nothing), finished and
 * listed; its rows exported whole and imported back by id, all unchanged; an edit refuses
 * the undo of an import, which then undoes cleanly; members without the permission and
 * another organization (also coklu@ bound to acme) find and change nothing.
 */
import { createHash, randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { acmeOrganizationId, demoPassword, rpc, signedInClient } from "../support/clients.ts";

const url = inject("stackUrl");

type Result = { row: number; status: string; id?: string; reason?: string; errors?: Record<string, string> };
type Exported = Record<string, unknown> & { id: string; owner_name: string | null; updated_at: string };

/** The fields an exported customer goes back in with: its importable columns, non-empty, and its owner by name. */
const customerFields = ["name", "kind", "tax_number", "tax_office", "sector", "status", "phone", "email", "website", "city",
  "district", "address", "tags", "description", "external_id"];

function reimportValues(record: Exported): Record<string, unknown> {
  const values: Record<string, unknown> = { id: record.id, owner: record.owner_name };
  for (const field of customerFields) {
    const value = record[field];
    if (value !== null && value !== "" && !(Array.isArray(value) && value.length === 0)) values[field] = value;
  }
  return values;
}

describe("import and export through supabase-js", () => {
  it("previews, runs idempotent batches, exports the rows and imports them back unchanged, and undoes an import", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const suffix = randomUUID().slice(0, 8);
    const rows = [
      { row: 2, values: { name: `İthalat Deneme ${suffix}`, tax_number: "2468135797", phone: "0212 555 12 34", tags: ["ithalat"], owner: "satis@demo.test" } },
      { row: 3, values: { name: `Hatalı ${suffix}`, tax_number: "1234567891" } },
      { row: 4, values: { name: `Çağ Ticaret ${suffix}`, external_id: `EXT-${suffix}`, city: "İzmir", owner: "Ayşe YILMAZ" } },
    ];

    const preview = await rpc(client, "check_import_rows", { p_kind: "customers", p_mode: "create", p_match_key: null, p_rows: rows });
    expect(preview).toMatchObject({ success: true, created: 2, failed: 1 });
    expect((preview.results as Result[])[1]).toEqual({ row: 3, status: "failed", errors: { tax_number: "invalid_vkn" } });
    expect(await rpc(client, "list_customers", { p_search: suffix })).toMatchObject({ total: 0 });

    const started = await rpc(client, "start_import", {
      p_kind: "customers", p_file_name: "musteriler.csv", p_file_size: 512, p_file_hash: createHash("sha256").update(suffix).digest("hex"),
      p_mode: "create", p_match_key: null, p_total_rows: 3, p_mapping: { Firma: "name", VKN: "tax_number" },
    });
    expect(started).toMatchObject({ success: true, import: { status: "running", total_rows: 3 } });
    const importId = (started.import as { id: string }).id;
    const first = await rpc(client, "run_import_batch", { p_import_id: importId, p_batch: 0, p_rows: rows.slice(0, 2) });
    expect(first).toMatchObject({ success: true, replayed: false, created: 1, failed: 1 });
    // A resumed client sends the same batch again: the same answer, nothing written twice.
    expect(await rpc(client, "run_import_batch", { p_import_id: importId, p_batch: 0, p_rows: rows.slice(0, 2) }))
      .toEqual({ ...first, replayed: true });
    expect(await rpc(client, "run_import_batch", { p_import_id: importId, p_batch: 1, p_rows: rows.slice(2) }))
      .toMatchObject({ created: 1 });
    expect(await rpc(client, "get_import", { p_import_id: importId })).toMatchObject({ import: { batches: [0, 1], created: 2, failed: 1 } });
    expect(await rpc(client, "finish_import", { p_import_id: importId })).toMatchObject({ import: { status: "completed" } });
    const listed = await rpc(client, "list_imports", { p_kind: "customers" });
    expect((listed.imports as { id: string }[])[0]).toMatchObject({ id: importId, created_by_name: "Ayşe Yılmaz" });

    // Export what the list shows for the search, whole rows, then import it back by id.
    const exported = await rpc(client, "export_records", { p_module: "customers", p_search: suffix, p_sort: "name", p_descending: false });
    const records = exported.records as Exported[];
    expect(exported).toMatchObject({ success: true, total: 2, total_exact: true, next_cursor: null });
    expect(records.map((record) => [record.name, record.owner_name, record.phone])).toEqual([
      [`Çağ Ticaret ${suffix}`, "Ayşe Yılmaz", null],
      [`İthalat Deneme ${suffix}`, "Mehmet Demir", "+902125551234"],
    ]);
    expect(records[0]).not.toHaveProperty("search_text");
    const back = await rpc(client, "check_import_rows", {
      p_kind: "customers", p_mode: "update", p_match_key: "id",
      p_rows: records.map((record, index) => ({ row: index + 2, values: reimportValues(record) })),
    });
    expect((back.results as Result[]).map((result) => result.status)).toEqual(["unchanged", "unchanged"]);

    // An edit since the import refuses its undo; the undo of an untouched import goes through.
    const edited = records[1];
    expect(await rpc(client, "update_customer", { p_id: edited.id, p_values: { sector: "Lojistik" }, p_updated_at: edited.updated_at }))
      .toMatchObject({ success: true });
    expect(await rpc(client, "revert_import", { p_import_id: importId })).toMatchObject({ success: false, code: "import_changed_since", changed: 1 });

    const second = await rpc(client, "start_import", {
      p_kind: "customers", p_file_name: "ikinci.csv", p_file_size: 128, p_file_hash: createHash("sha256").update(`2${suffix}`).digest("hex"),
      p_mode: "upsert", p_match_key: "external_id", p_total_rows: 2, p_mapping: {},
    });
    const secondId = (second.import as { id: string }).id;
    const upserted = await rpc(client, "run_import_batch", {
      p_import_id: secondId, p_batch: 0,
      p_rows: [{ row: 2, values: { external_id: `EXT-${suffix}`, city: "Ankara" } }, { row: 3, values: { name: `Yeni ${suffix}` } }],
    });
    expect(upserted).toMatchObject({ updated: 1, created: 1 });
    await rpc(client, "finish_import", { p_import_id: secondId });
    expect(await rpc(client, "revert_import", { p_import_id: secondId })).toEqual({ success: true, deleted: 1, restored: 1 });
    expect(await rpc(client, "get_customer", { p_id: records[0].id })).toMatchObject({ record: { city: "İzmir" } });
  });

  it("refuses members without the permission and other organizations", async () => {
    const { client: admin } = await signedInClient(url, "admin@demo.test");
    const started = await rpc(admin, "start_import", {
      p_kind: "customers", p_file_name: "gizli.csv", p_file_size: 64, p_file_hash: "0".repeat(64),
      p_mode: "create", p_match_key: null, p_total_rows: 1, p_mapping: {},
    });
    const importId = (started.import as { id: string }).id;
    await rpc(admin, "run_import_batch", { p_import_id: importId, p_batch: 0, p_rows: [{ row: 2, values: { name: `Gizli ${randomUUID()}` } }] });

    // satis@ is Satış Temsilcisi (sales) of demo: no import permission by default.
    const { client: satis } = await signedInClient(url, "satis@demo.test");
    expect(await rpc(satis, "start_import", {
      p_kind: "customers", p_file_name: "a.csv", p_file_size: 1, p_file_hash: "0".repeat(64), p_mode: "create", p_match_key: null,
      p_total_rows: 1, p_mapping: {},
    })).toMatchObject({ success: false, code: "permission_denied" });
    expect(await rpc(satis, "get_import", { p_import_id: importId })).toMatchObject({ success: false, code: "permission_denied" });

    for (const email of ["admin@acme.test", "coklu@demo.test"]) {
      const { client: other } = await signedInClient(url, email, demoPassword, { organization: acmeOrganizationId });
      expect(await rpc(other, "run_import_batch", { p_import_id: importId, p_batch: 1, p_rows: [{ row: 3, values: { name: "Sızma" } }] }))
        .toMatchObject({ success: false });
      expect(await rpc(other, "revert_import", { p_import_id: importId })).toMatchObject({ success: false });
      const exported = await rpc(other, "export_records", { p_module: "customers", p_search: "Gizli" });
      expect(exported.success ? exported.records : []).toEqual([]);
    }
  });
});
