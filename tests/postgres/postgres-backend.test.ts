import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/stack/free-port.ts";
import { startStack, type RunningStack } from "../../scripts/stack/server.ts";
import { testKeys } from "../support/keys.ts";
import { createTestDatabase, type TestDatabase } from "../../scripts/stack/test-database.ts";
import { createMember, expectTenConcurrentFailuresToLockAtFive } from "../support/accounts.ts";
import { anonClient, privilegedRpc, rpc, signedInClient } from "../support/clients.ts";
import { turkishNamesInOrder } from "../support/turkish-names.ts";
import { customerNamesSortedByName } from "../support/turkish-order.ts";

// The same migrations, seed, Auth and REST over a real PostgreSQL 15 (DATABASE_URL mode).
describe("the local stack on PostgreSQL", () => {
  let database: TestDatabase;
  let stack: RunningStack;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({ port: await freePort(), databaseUrl: database.url, seed: true, keys: testKeys });
  });

  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
  });

  it("applied every migration and the seed", async () => {
    const migrations = await stack.backend.sql.query<{ version: string }>(
      "select version from supabase_migrations.schema_migrations order by version",
    );
    expect(migrations.length).toBeGreaterThan(0);
    const [{ count }] = await stack.backend.sql.query<{ count: number }>("select count(*)::int as count from private.organizations");
    expect(count).toBe(2);
  });

  it("signs a seeded user in and answers the context RPC", async () => {
    const { client } = await signedInClient(stack.url, "admin@acme.test");
    const { data, error } = await client.rpc("get_current_user_context");
    expect(error).toBeNull();
    expect(data).toMatchObject({ organization: { slug: "acme", name: "Acme Sanayi Ltd." } });
  });

  it("locks at exactly five of ten truly concurrent wrong passwords and keeps the count consistent", async () => {
    const { email } = await createMember(stack.url);
    await expectTenConcurrentFailuresToLockAtFive(stack.url, email);
    const [profile] = await stack.backend.sql.query<{ failed_login_attempts: number; locked_minutes: number }>(
      `select failed_login_attempts, round(extract(epoch from locked_until - now()) / 60)::int as locked_minutes
         from private.profiles where email = $1`,
      [email],
    );
    expect(profile).toEqual({ failed_login_attempts: 5, locked_minutes: 30 });
    const [{ logged }] = await stack.backend.sql.query<{ logged: number }>(
      "select count(*)::int as logged from private.login_attempts where email = $1",
      [email],
    );
    expect(logged).toBe(11);
  });

  it("runs API requests under the API roles' statement timeout, and the stack's own work (migrations) without one", async () => {
    expect(await rpc(anonClient(stack.url), "test_auth_uid")).toMatchObject({ statement_timeout: "8s" });
    const { client } = await signedInClient(stack.url, "admin@acme.test");
    expect(await rpc(client, "test_auth_uid")).toMatchObject({ role: "authenticated", statement_timeout: "8s" });
    const [{ timeout }] = await stack.backend.sql.query<{ timeout: string }>("select current_setting('statement_timeout') as timeout");
    expect(timeout).toBe("0");
  });

  it("passes JSON objects to jsonb parameters (lite encoded them twice on PostgreSQL)", async () => {
    const { client } = await signedInClient(stack.url, "admin@demo.test");
    const created = await rpc(client, "create_customer", { p_values: { name: "Jsonb Deneme", status: "active" } });
    expect(created).toMatchObject({ success: true, record: { name: "Jsonb Deneme", status: "active" } });
    expect(await rpc(client, "list_customers", { p_filters: { status: "active" }, p_search: "jsonb deneme" })).toMatchObject({ total: 1 });
    const member = await createMember(stack.url);
    expect(await privilegedRpc(client, "update_user_secure", { p_user_id: member.id, p_user_data: { first_name: "Yeni" } })).toMatchObject({
      success: true,
      user: { first_name: "Yeni" },
    });
  });

  it("sorts customers by name in Turkish order, as on PGlite", async () => {
    const { client } = await signedInClient(stack.url, "admin@demo.test");
    const sorted = await customerNamesSortedByName(client);
    expect(sorted.ascending).toEqual(turkishNamesInOrder);
    expect(sorted.descending).toEqual([...turkishNamesInOrder].reverse());
  });

  it("provisions every organization's tables and keeps them equal to the template", async () => {
    const drift = await stack.backend.sql.query<{ slug: string; matches_template: boolean }>(
      "select slug, matches_template from private.tenant_schema_drift() order by slug",
    );
    expect(drift).toEqual([
      { slug: "acme", matches_template: true },
      { slug: "demo", matches_template: true },
    ]);
  });

  it("serves Edge Functions over the PostgreSQL backend", async () => {
    const { client } = await signedInClient(stack.url, "admin@acme.test");
    const { data } = await client.functions.invoke("current-user");
    expect(data).toMatchObject({ success: true, organization: { slug: "acme" } });
  });
});
