import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startStack, type RunningStack } from "../../scripts/stack/server.ts";
import { createTestDatabase, type TestDatabase } from "../../scripts/stack/test-database.ts";
import { signedInClient } from "../support/clients.ts";

// The same migrations, seed, Auth and REST over a real PostgreSQL 15 (DATABASE_URL mode).
describe("the local stack on PostgreSQL", () => {
  let database: TestDatabase;
  let stack: RunningStack;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({ port: await freePort(), databaseUrl: database.url, seed: true });
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

  it("serves Edge Functions over the PostgreSQL backend", async () => {
    const { client } = await signedInClient(stack.url, "admin@acme.test");
    const { data } = await client.functions.invoke("current-user");
    expect(data).toMatchObject({ success: true, organization: { slug: "acme" } });
  });
});
