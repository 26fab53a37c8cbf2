import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../scripts/stack/test-database.ts";
import { migrateAllTenants } from "../../scripts/stack/tenant-migrations.ts";

// The runner gives each organization its own transaction, which pgTAP (one transaction
// per file) cannot show: here it runs against a real PostgreSQL.
describe("applying a template change to every organization", () => {
  let database: TestDatabase;
  let sql: postgres.Sql;

  const versions = async () =>
    Object.fromEntries(
      (await sql`select slug, template_version, last_migration_error from private.organizations order by slug`).map((row) => [
        row.slug,
        { version: row.template_version, failed: row.last_migration_error !== null },
      ]),
    );

  const migrate = () => migrateAllTenants((text, params) => sql.unsafe(text, params as never[]) as never);

  beforeAll(async () => {
    database = await createTestDatabase({ prefix: "crm_tenant_migrations", seed: true });
    sql = postgres(database.url, { max: 1, onnotice: () => {} });
  });

  afterAll(async () => {
    await sql?.end();
    await database?.drop();
  });

  it("goes on past a failing organization, then resumes it, one transaction each", async () => {
    const [{ latest }] = await sql`select private.latest_template_version() as latest`;
    const next = latest + 1;
    expect(await versions()).toEqual({ acme: { version: latest, failed: false }, demo: { version: latest, failed: false } });
    const [acme] = await sql`select schema_name from private.organizations where slug = 'acme'`;
    // Something in acme's schema that the next step will collide with.
    await sql.unsafe(`create table ${acme.schema_name}.deal_stages (id integer)`);
    await sql`insert into private.tenant_template_steps (version, description, ddl)
              values (${next}, 'deal stages', 'create table deal_stages (id uuid primary key default gen_random_uuid(), name text not null);')`;

    const first = await migrate();
    expect(first.migrated).toBe(1);
    expect(first.failed).toEqual([{ organizationId: expect.any(String), error: expect.stringContaining("deal_stages") }]);
    expect(await versions()).toEqual({ acme: { version: latest, failed: true }, demo: { version: next, failed: false } });

    await sql.unsafe(`drop table ${acme.schema_name}.deal_stages`);
    expect(await migrate()).toEqual({ migrated: 1, sparesMigrated: 0, failed: [] });
    expect(await versions()).toEqual({ acme: { version: next, failed: false }, demo: { version: next, failed: false } });

    const [{ applied }] = await sql`select count(*)::int as applied from private.tenant_migrations where version = ${next}`;
    expect(await migrate()).toEqual({ migrated: 0, sparesMigrated: 0, failed: [] });
    const [{ again }] = await sql`select count(*)::int as again from private.tenant_migrations where version = ${next}`;
    expect([applied, again]).toEqual([2, 2]);

    const drift = await sql`select slug, matches_template from private.tenant_schema_drift() order by slug`;
    expect(drift.map((row) => [row.slug, row.matches_template])).toEqual([
      ["acme", true],
      ["demo", true],
    ]);
    expect(await sql`select * from private.tenant_security_findings()`).toHaveLength(0);
  });

  it("leaves an organization's custom columns, their index and their values alone", async () => {
    const [demo] = await sql`select id, schema_name from private.organizations where slug = 'demo'`;
    // A custom field as save_custom_field leaves it: the declaration, the column and its index.
    await sql`insert into private.custom_fields (organization_id, module, key, type, label_tr, position, filterable)
              values (${demo.id}, 'customers', 'cf_bolge_kodu', 'text', 'Bölge kodu', 1, true)`;
    await sql`select private.build_custom_fields(${demo.id})`;
    await sql.unsafe(`update ${demo.schema_name}.customers set cf_bolge_kodu = 'B-' || left(id::text, 8)`);
    const values = () => sql.unsafe(`select id, cf_bolge_kodu from ${demo.schema_name}.customers order by id`);
    const before = await values();
    expect(before.length).toBeGreaterThan(0);

    const [{ latest }] = await sql`select private.latest_template_version() as latest`;
    await sql`insert into private.tenant_template_steps (version, description, ddl)
              values (${latest + 1}, 'customer notes', 'alter table customers add column region_note text;')`;
    expect(await migrate()).toEqual({ migrated: 2, sparesMigrated: 0, failed: [] });

    expect(await values()).toEqual(before);
    const [index] = await sql`select indexdef from pg_indexes where schemaname = ${demo.schema_name} and indexname = 'customers_cf_bolge_kodu_filter_idx'`;
    expect(index?.indexdef).toContain("(cf_bolge_kodu, id) WHERE (deleted_at IS NULL)");
    const [declared] = await sql`select count(*)::int as n from private.custom_fields where organization_id = ${demo.id}`;
    expect(declared.n).toBe(1);
    expect(await sql`select * from private.tenant_security_findings()`).toHaveLength(0);
  });
});
