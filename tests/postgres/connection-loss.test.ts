/**
 * The stack on PostgreSQL when the database drops a request's connection (as a restart
 * does, here with pg_terminate_backend): the request gets a clean 503 in JSON, the stack
 * keeps running (postgres.js 3.4.9 crashed the process: scripts/stack/postgres-reservations.ts)
 * and the next requests are answered on new connections. Found by `npm run faults`, which
 * restarts a private PostgreSQL under a stream of requests. And the stack's stop under
 * traffic: a request whose client went away is answered to its end before the database
 * closes (it printed the driver's CONNECTION_ENDED errors on every stop of `npm run load`).
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { answerProblems } from "../../scripts/fuzz/judge.ts";
import { freePort } from "../../scripts/stack/free-port.ts";
import { startStack, type RunningStack } from "../../scripts/stack/server.ts";
import { testKeys } from "../support/keys.ts";
import { createTestDatabase, type TestDatabase } from "../../scripts/stack/test-database.ts";
import { demoOrganizationId, signedInClient } from "../support/clients.ts";

describe("the stack on PostgreSQL when a request's connection is cut", () => {
  let database: TestDatabase;
  let stack: RunningStack;
  let direct: postgres.Sql;

  beforeAll(async () => {
    database = await createTestDatabase({ seed: true });
    stack = await startStack({ port: await freePort(), databaseUrl: database.url, keys: testKeys });
    direct = postgres(database.url, { max: 2, onnotice: () => {} });
  });

  afterAll(async () => {
    await direct?.end({ timeout: 5 });
    await stack?.stop();
    await database?.drop();
  });

  /** A list of customers as the demo admin, cut off by `signal` or after 15 s. */
  const listCustomers = async (token: string, signal = AbortSignal.timeout(15_000)) => {
    const response = await fetch(`${stack.url}/rest/v1/rpc/list_customers`, {
      method: "POST",
      headers: { "content-type": "application/json", apikey: stack.keys.publishableKey, authorization: `Bearer ${token}` },
      body: JSON.stringify({ p_limit: 5 }),
      signal,
    });
    return { status: response.status, text: await response.text() };
  };

  /** Locks the demo organization's customers in a transaction of its own; answers what releases them. */
  const lockCustomers = async (): Promise<() => void> => {
    const [{ schema }] = await direct<{ schema: string }[]>`select private.tenant_schema(${demoOrganizationId}) as schema`;
    let unlock = () => {};
    await new Promise<void>((resolve) => {
      void direct.begin(async (tx) => {
        await tx.unsafe(`lock table "${schema}".customers in access exclusive mode`);
        resolve();
        await new Promise<void>((release) => (unlock = release));
      });
    });
    return () => unlock();
  };

  /** The backends waiting on a lock (the requests held by lockCustomers), once there is one (at most 5 s). */
  const lockWaiters = async (): Promise<{ pid: number }[]> => {
    let waiting: { pid: number }[] = [];
    for (let attempt = 0; attempt < 100 && waiting.length === 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      waiting = await direct<{ pid: number }[]>`
        select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`;
    }
    return waiting;
  };

  it("answers a clean 503, keeps running and answers the next requests", async () => {
    const { session } = await signedInClient(stack.url, "admin@demo.test");
    expect((await listCustomers(session.access_token)).status).toBe(200);

    // The request waits on a lock inside its transaction; then its backend is terminated.
    const unlock = await lockCustomers();
    const answer = listCustomers(session.access_token);
    const waiting = await lockWaiters();
    expect(waiting).toHaveLength(1);
    await direct`select pg_terminate_backend(${waiting[0].pid})`;
    const cut = await answer;
    unlock();

    expect(cut.status).toBe(503);
    expect(answerProblems(cut.status, cut.text, { kind: "rpc", databaseDown: true })).toEqual([]);
    // Every connection of the pool is taken in turn: none was left dead.
    const next = await Promise.all(Array.from({ length: 20 }, () => listCustomers(session.access_token)));
    expect(next.map((each) => each.status)).toEqual(Array(20).fill(200));
  });

  // Last: it stops the stack.
  it("stops after the requests still being answered, even those whose client left, without an error", async () => {
    const { session } = await signedInClient(stack.url, "admin@demo.test");
    const unlock = await lockCustomers();
    // The client sends a list, then leaves while the request waits inside its transaction.
    const leaving = new AbortController();
    const sent = listCustomers(session.access_token, leaving.signal).catch(() => undefined);
    expect(await lockWaiters()).toHaveLength(1);
    leaving.abort();
    await sent;

    const printed = vi.spyOn(console, "error");
    try {
      let stopped = false;
      const stopping = stack.stop().then(() => (stopped = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(stopped).toBe(false);
      unlock();
      await stopping;
      expect(printed.mock.calls.map((call) => call.map(String).join(" "))).toEqual([]);
    } finally {
      printed.mockRestore();
      unlock();
    }
  });
});
