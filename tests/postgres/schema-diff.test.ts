import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationsDir } from "../../scripts/stack/database.ts";
import {
  diffSchemaFiles,
  isEmptyDifference,
  renderDifference,
  writeMigration,
  type SchemaDifference,
  type SchemaFolders,
} from "../../scripts/stack/schema-diff.ts";
import { createTestDatabase } from "../../scripts/stack/test-database.ts";

// `npm run db:diff` on temporary folders: schema files that start out equal to the
// migrations (every migration in one file; the template steps in one tenant file), then
// one change of each kind the product makes. The diff must catch each one, and the
// migration it writes, applied after the others, must leave no difference.

// Applied by both sides before the changes, so that there is a policy to change.
const policyBase = "create policy modules_read on private.modules for select to authenticated using (key <> 'x');\n";

const schemaChanges = `
-- a one-line change in a function body (a function a check constraint calls)
create or replace function private.is_valid_slug(p_slug text)
returns boolean language sql immutable set search_path = ''
as $$
  select p_slug is not null
     and p_slug ~ '^[A-Za-z0-9_-]{1,31}$'
     and private.is_safe_identifier('org_' || lower(replace(p_slug, '-', '_')) || '_0');
$$;
-- a new column
alter table private.modules add column note text;
-- a changed policy
alter policy modules_read on private.modules using (key <> 'y');
-- a revoked grant
revoke execute on function public.validate_organization_slug(text) from authenticated;
-- a trigger on auth.users
create function private.note_new_user() returns trigger language plpgsql set search_path = ''
as $$ begin return new; end; $$;
revoke execute on function private.note_new_user() from public, anon, authenticated;
create trigger note_new_user after insert on auth.users for each row execute function private.note_new_user();
-- a storage.objects policy
create policy documents_owner_read on storage.objects for select to authenticated
  using (bucket_id = 'documents' and owner_id = (select auth.uid())::text);
-- an edited registry row
update private.modules set default_descending = true where key = 'customers';
`;

const tenantChanges = `
alter table customers add column source text;
create index customers_source_idx on customers (source);
`;

describe("npm run db:diff", () => {
  let root: string;
  let folders: SchemaFolders;
  let nextTemplateVersion: number;
  let difference: SchemaDifference;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "crm-schema-diff-"));
    folders = { migrationsDir: join(root, "migrations"), schemasDir: join(root, "schemas"), tenantDir: join(root, "schemas", "tenant") };
    cpSync(migrationsDir, folders.migrationsDir, { recursive: true });
    const migrations = readdirSync(folders.migrationsDir).sort();
    const newest = migrations.at(-1)!;
    writeFileSync(join(folders.migrationsDir, `${String(BigInt(newest.slice(0, 14)) + 1n)}_test_policy.sql`), policyBase);

    // The schema files as they stand before the changes: the same state as the migrations.
    mkdirSync(folders.tenantDir, { recursive: true });
    const all = migrations.map((file) => `${readFileSync(join(migrationsDir, file), "utf8")}\n;\n`).join("");
    writeFileSync(join(folders.schemasDir, "00_all.sql"), `${all}${policyBase}`);
    const database = await createTestDatabase({ prefix: "crm_schema_diff_steps" });
    try {
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      const steps = await sql<{ version: number; ddl: string }[]>`select version, ddl from private.tenant_template_steps order by version`;
      await sql.end();
      writeFileSync(join(folders.tenantDir, "00_all.sql"), steps.map((step) => `${step.ddl}\n;\n`).join(""));
      nextTemplateVersion = steps.at(-1)!.version + 1;
    } finally {
      await database.drop();
    }

    appendFileSync(join(folders.schemasDir, "00_all.sql"), schemaChanges);
    appendFileSync(join(folders.tenantDir, "00_all.sql"), tenantChanges);
    difference = await diffSchemaFiles(folders, "test_changes");
  }, 240_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("catches each kind of change", () => {
    const schema = difference.schema.join("\n");
    expect(schema).toMatch(/CREATE OR REPLACE FUNCTION private\.is_valid_slug\(p_slug text\)[\s\S]*\{1,31\}/);
    expect(schema).toContain('ALTER TABLE "private"."modules" ADD COLUMN "note" text;');
    expect(schema).toMatch(/POLICY "modules_read" ON "private"\."modules"[\s\S]*'y'::text/);
    expect(schema).toContain('REVOKE ALL ON FUNCTION "public"."validate_organization_slug"(text) FROM "authenticated";');
    expect(schema).toMatch(/CREATE TRIGGER note_new_user AFTER INSERT ON auth\.users FOR EACH ROW EXECUTE FUNCTION private\.note_new_user\(\)/);
    expect(schema).toMatch(/CREATE POLICY "documents_owner_read" ON "storage"\."objects" FOR SELECT TO "authenticated"/);
    // lite's and platform.sql's own objects are the same on both sides.
    expect(schema).not.toMatch(/(CREATE|DROP|ALTER) (TABLE|FUNCTION|SCHEMA|ROLE) "?(auth|storage|extensions|supabase_migrations)"?\./);
    expect(difference.data).toEqual([`update "private"."modules" set "default_descending" = 'true'::boolean where "key" = 'customers'::text;`]);
    expect(difference.tenantStep).toMatch(
      new RegExp(`^insert into private\\.tenant_template_steps \\(version, description, ddl\\) values \\(${nextTemplateVersion}, 'test_changes', \\$template\\$`),
    );
    expect(difference.tenantStep).toContain('ALTER TABLE "customers" ADD COLUMN "source" text;');
    expect(difference.tenantStep).toContain("CREATE INDEX customers_source_idx ON customers USING btree (source);");
    expect(difference.tenantStep).not.toContain("org_");
  });

  it("writes a migration that, applied after the others, leaves no difference", async () => {
    const path = writeMigration(difference, "test_changes", folders.migrationsDir);
    expect(path).toMatch(/\/\d{14}_test_changes\.sql$/);
    const written = readFileSync(path, "utf8");
    expect(written).toMatch(/^-- Generated by `npm run db:diff -- test_changes`/);
    expect(written).toContain(renderDifference(difference));

    const left = await diffSchemaFiles(folders, "test_changes");
    expect(renderDifference(left)).toBe("");
    expect(isEmptyDifference(left)).toBe(true);
  }, 240_000);

  it("names the schema file and line that fail", async () => {
    const broken = { ...folders, schemasDir: join(root, "broken") };
    mkdirSync(broken.schemasDir);
    writeFileSync(join(broken.schemasDir, "00_first.sql"), "create schema private;\n");
    writeFileSync(join(broken.schemasDir, "01_second.sql"), "create table private.a (id int primary key);\ncreate tabel private.b ();\n");
    await expect(diffSchemaFiles(broken)).rejects.toThrow(`(${join(broken.schemasDir, "01_second.sql")}, line 2): syntax error at or near "tabel"`);
  }, 120_000);
});
