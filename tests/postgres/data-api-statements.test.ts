/**
 * What one RPC costs the database through the Data API (issue 28): the statements lite's
 * connection sends for `get_current_user_context`, counted as they leave (the backend's
 * statement log). Fails when an upgrade of @supabase/lite drops a patch or a change of the
 * stack (data-api-path.ts, postgres-reservations.ts) lets the count grow:
 * - no lookup of auth.users or auth.sessions (the patch's resolveAuth skips /rest/v1);
 * - the request's settings in one statement; every statement with parameters prepared
 *   (one round trip, not two); BEGIN travels with that statement;
 * - a token verified once (the patch's cache of verified tokens);
 * - no organization's schema in lite's schema cache, whatever the number of organizations.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/stack/free-port.ts";
import { startStack, type RunningStack } from "../../scripts/stack/server.ts";
import { createPostgresConnection, type PostgresConnection } from "@supabase/lite/postgres";
import { answeredWithNext, reserveOwnConnections, type SentStatement } from "../../scripts/stack/postgres-reservations.ts";
import { createTestDatabase, type TestDatabase } from "../../scripts/stack/test-database.ts";
import { testKeys } from "../support/keys.ts";
import { signedInClient, type CrmClient } from "../support/clients.ts";

/**
 * The round trips a run of statements takes: BEGIN and a statement answered with the next
 * one ride with that one, an unprepared statement with parameters takes two.
 */
export function roundTrips(statements: SentStatement[]): number {
  return statements.reduce((total, statement) => {
    if (statement.text === "begin" || statement.text.startsWith(answeredWithNext)) return total;
    return total + (statement.parameters > 0 && !statement.prepared ? 2 : 1);
  }, 0);
}

describe("the Data API's statements per RPC (PostgreSQL)", () => {
  let database: TestDatabase;
  let stack: RunningStack;
  let client: CrmClient;
  let accessToken: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({ port: await freePort(), databaseUrl: database.url, seed: true, keys: testKeys });
    const signedIn = await signedInClient(stack.url, "admin@acme.test");
    client = signedIn.client;
    accessToken = signedIn.session.access_token;
    expect((await client.rpc("get_current_user_context")).error).toBeNull();
  });

  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
  });

  async function statementsOf(call: () => PromiseLike<{ error: unknown }>): Promise<SentStatement[]> {
    const sent: SentStatement[] = [];
    const stop = stack.backend.statements.listen((statement) => sent.push(statement));
    try {
      expect((await call()).error).toBeNull();
    } finally {
      stop();
    }
    return sent;
  }

  it("sends five statements in three round trips: BEGIN and the settings with the call, the response settings, COMMIT", async () => {
    const sent = await statementsOf(() => client.rpc("get_current_user_context"));
    const texts = sent.map((statement) => statement.text.replace(/\s+/g, " ").trim());
    expect(texts.some((text) => /auth"?\."?(users|sessions)/.test(text))).toBe(false);
    expect(texts[0]).toBe("begin");
    expect(texts[1].startsWith(answeredWithNext.trim())).toBe(true);
    expect(texts[1].slice(answeredWithNext.trim().length).trim()).toMatch(/^select set_config\('role', \$1, true\), .*set_config\('request\.headers', \$\d+, true\)/);
    expect(texts.filter((text) => text.includes("set_config"))).toHaveLength(1);
    expect(texts[2]).toMatch(/public\.get_current_user_context\(\)/);
    expect(texts[4]).toBe("commit");
    expect(sent.filter((statement) => statement.parameters > 0).every((statement) => statement.prepared)).toBe(true);
    expect(sent).toHaveLength(5);
    expect(roundTrips(sent)).toBe(3);
  });

  it("runs a read-only RPC read only, in the same one statement of settings", async () => {
    // get_current_user_context is stable: lite runs it read only (PostgREST's GET rule).
    const sent = await statementsOf(() => client.rpc("get_current_user_context", undefined, { get: true }));
    expect(sent.filter((statement) => statement.text.includes("set_config"))).toHaveLength(1);
    expect(sent[1].text).toContain("set_config('transaction_read_only', 'on', true)");
    expect(sent).toHaveLength(5);
  });

  it("verifies a token once: lite keeps it among its verified tokens, once", async () => {
    const kept = (globalThis as Record<symbol, Map<string, unknown> | undefined>)[Symbol.for("@supabase/lite.verifiedTokens")];
    expect(kept, "the patch of @supabase/lite is not applied (npm ci runs patch-package)").toBeInstanceOf(Map);
    const entries = () => [...kept!.keys()].filter((key) => key.endsWith(`Bearer ${accessToken}`));
    expect(entries()).toHaveLength(1);
    for (let call = 0; call < 3; call++) expect((await client.rpc("get_current_user_context")).error).toBeNull();
    expect(entries()).toHaveLength(1);
  });

  it("keeps every organization's schema out of lite's schema cache", async () => {
    const [{ count }] = await stack.backend.sql.query<{ count: number }>(
      "select count(*)::int as count from pg_namespace where nspname like 'org\\_%'",
    );
    expect(count).toBeGreaterThanOrEqual(2);
    const cached = stack.backend.schemaCacheSchemas();
    expect(cached).toContain("private");
    expect(cached.filter((schema) => schema.startsWith("org_"))).toEqual([]);
  });

  describe("statements answered with the next one", () => {
    let connection: PostgresConnection;
    let reservations: { end(options: { timeout: number }): Promise<void> };

    beforeAll(() => {
      connection = createPostgresConnection({ url: database.url, postgresOptions: { max: 1, onnotice: () => {} } });
      reservations = reserveOwnConnections(connection);
    });

    afterAll(async () => {
      await reservations?.end({ timeout: 5 });
      await (connection?.driver as unknown as { end(options: { timeout: number }): Promise<void> })?.end({ timeout: 5 });
    });

    const elapsed = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };

    it("sends BEGIN and a marked statement at once, and waits for their answers with the next statement", async () => {
      const reserved = await connection.driver.reserve();
      try {
        // Not waited for: the server still sleeps when the next statement is sent.
        expect(await elapsed(() => reserved.unsafe("begin"))).toBeLessThan(150);
        const marked = `${answeredWithNext}select pg_sleep(0.4), set_config('app.step', $1, true)`;
        expect(await elapsed(() => reserved.unsafe(marked, ["marked" as never]))).toBeLessThan(150);
        let rows: Record<string, unknown>[] = [];
        expect(await elapsed(async () => (rows = await reserved.unsafe("select current_setting('app.step', true) as seen")))).toBeGreaterThanOrEqual(350);
        expect(rows).toEqual([{ seen: "marked" }]);
        await reserved.unsafe("commit");
      } finally {
        reserved.release();
      }
    });

    it("fails the next statement with a marked statement's error", async () => {
      const reserved = await connection.driver.reserve();
      try {
        await reserved.unsafe("begin");
        await reserved.unsafe(`${answeredWithNext}select 1 / $1::int`, [0 as never]);
        await expect(reserved.unsafe("select 1")).rejects.toThrow(/division by zero/);
        await reserved.unsafe("rollback");
        expect(await reserved.unsafe("select 2 as two")).toEqual([{ two: 2 }]);
      } finally {
        reserved.release();
      }
    });
  });
});
