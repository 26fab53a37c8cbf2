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
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/stack/free-port.ts";
import { startStack, type RunningStack } from "../../scripts/stack/server.ts";
import { createPostgresConnection, type PostgresConnection } from "@supabase/lite/postgres";
import {
  answeredWithNext,
  beforeAnRpcCall,
  reserveOwnConnections,
  responseSettingsRead,
  type SentStatement,
} from "../../scripts/stack/postgres-reservations.ts";
import { createTestDatabase, type TestDatabase } from "../../scripts/stack/test-database.ts";
import { testKeys } from "../support/keys.ts";
import { signedInClient, type CrmClient } from "../support/clients.ts";

/**
 * The round trips a run of statements takes: BEGIN and a statement answered with the next
 * one ride with that one, a statement sent unasked rides with the one before it, an
 * unprepared statement with parameters takes two.
 */
export function roundTrips(statements: SentStatement[]): number {
  return statements.reduce((total, statement) => {
    if (statement.text === "begin" || statement.text.startsWith(answeredWithNext) || statement.early) return total;
    return total + (statement.parameters > 0 && !statement.prepared ? 2 : 1);
  }, 0);
}

/**
 * A TCP proxy in front of PostgreSQL that counts round trips as they happen on the wire:
 * a client's write after the server last spoke (or its first) starts one.
 */
async function roundTripCounter(target: URL) {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    let serverSpoke = true;
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on("data", (chunk) => {
      if (serverSpoke) count += 1;
      serverSpoke = false;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      serverSpoke = true;
      client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    roundTrips: () => count,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
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

  it("sends five statements in two round trips: BEGIN, the settings, the call and the response settings' read together, then COMMIT", async () => {
    const sent = await statementsOf(() => client.rpc("get_current_user_context"));
    const texts = sent.map((statement) => statement.text.replace(/\s+/g, " ").trim());
    expect(texts.some((text) => /auth"?\."?(users|sessions)/.test(text))).toBe(false);
    expect(texts[0]).toBe("begin");
    expect(texts[1].startsWith(beforeAnRpcCall.trim())).toBe(true);
    expect(texts[1].slice(beforeAnRpcCall.trim().length).trim()).toMatch(/^select set_config\('role', \$1, true\), .*set_config\('request\.headers', \$\d+, true\)/);
    expect(texts.filter((text) => text.includes("set_config"))).toHaveLength(1);
    expect(texts[2]).toMatch(/public\.get_current_user_context\(\)/);
    // lite's read of the response settings, sent with the call (lite's own is answered by it).
    expect(sent[3]).toEqual({ text: responseSettingsRead, parameters: 0, prepared: false, early: true });
    expect(texts[4]).toBe("commit");
    expect(sent.filter((statement) => statement.parameters > 0).every((statement) => statement.prepared)).toBe(true);
    expect(sent).toHaveLength(5);
    expect(roundTrips(sent)).toBe(2);
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
    let wire: Awaited<ReturnType<typeof roundTripCounter>>;

    beforeAll(async () => {
      wire = await roundTripCounter(new URL(database.url));
      connection = createPostgresConnection({ url: wire.url, postgresOptions: { max: 1, onnotice: () => {} } });
      reservations = reserveOwnConnections(connection);
    });

    afterAll(async () => {
      await reservations?.end({ timeout: 5 });
      await (connection?.driver as unknown as { end(options: { timeout: number }): Promise<void> })?.end({ timeout: 5 });
      await wire?.close();
    });

    /** lite's statements of an RPC as it sends them (its read of the response settings in its own layout). */
    const liteRead = "\n  SELECT current_setting('response.status', true) AS status,\n         current_setting('response.headers', true) AS headers\n";
    const rpcSettings = `${beforeAnRpcCall}select set_config('response.status', '', true), set_config('request.method', $1, true)`;

    type Reserved = Awaited<ReturnType<PostgresConnection["driver"]["reserve"]>>;

    /**
     * The round trips `work` takes on the wire on a reserved connection, at its second run:
     * the first time on a connection, a statement with parameters is described first (a
     * round trip of its own, before anything behind it is sent); then it is prepared.
     */
    async function roundTripsOf(work: (reserved: Reserved) => Promise<void>): Promise<number> {
      const reserved = await connection.driver.reserve();
      try {
        await work(reserved);
        const before = wire.roundTrips();
        await work(reserved);
        return wire.roundTrips() - before;
      } finally {
        reserved.release();
      }
    }

    it("sends an RPC's BEGIN, settings, call and response settings' read in one round trip, COMMIT in a second", async () => {
      const trips = await roundTripsOf(async (reserved) => {
        await reserved.unsafe("begin");
        await reserved.unsafe(rpcSettings, ["POST" as never]);
        expect(await reserved.unsafe("select set_config('response.status', '201', true) as call")).toEqual([{ call: "201" }]);
        expect(await reserved.unsafe(liteRead)).toEqual([{ status: "201", headers: null }]);
        await reserved.unsafe("commit");
      });
      expect(trips).toBe(2);
    });

    it("sends a request's BEGIN and settings with its statement in one round trip", async () => {
      const trips = await roundTripsOf(async (reserved) => {
        await reserved.unsafe("begin");
        await reserved.unsafe(`${answeredWithNext}select set_config('request.jwt.claim.sub', $1, true)`, ["someone" as never]);
        expect(await reserved.unsafe("select current_setting('request.jwt.claim.sub') as sub")).toEqual([{ sub: "someone" }]);
        await reserved.unsafe("commit");
      });
      expect(trips).toBe(2);
    });

    it("answers a read of the response settings that does not come right after the call from the server, as it is then", async () => {
      const reserved = await connection.driver.reserve();
      try {
        await reserved.unsafe("begin");
        await reserved.unsafe(rpcSettings, ["POST" as never]);
        await reserved.unsafe("select set_config('response.status', '201', true)");
        await reserved.unsafe("select set_config('response.status', '202', true)");
        expect(await reserved.unsafe(liteRead)).toEqual([{ status: "202", headers: null }]);
        await reserved.unsafe("commit");
      } finally {
        reserved.release();
      }
    });

    it("drops the early read after a failed call: the rollback and the next request go as usual", async () => {
      const reserved = await connection.driver.reserve();
      try {
        await reserved.unsafe("begin");
        await reserved.unsafe(rpcSettings, ["POST" as never]);
        await expect(reserved.unsafe("select 1 / 0")).rejects.toThrow(/division by zero/);
        await reserved.unsafe("rollback");
        await reserved.unsafe("begin");
        await reserved.unsafe(rpcSettings, ["GET" as never]);
        expect(await reserved.unsafe("select current_setting('request.method') as method")).toEqual([{ method: "GET" }]);
        expect(await reserved.unsafe(liteRead)).toEqual([{ status: "", headers: null }]);
        await reserved.unsafe("commit");
      } finally {
        reserved.release();
      }
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
