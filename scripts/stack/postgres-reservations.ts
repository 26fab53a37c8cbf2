/**
 * Reserved connections for lite on PostgreSQL that survive the database going away.
 *
 * lite runs every request on a reserved postgres.js connection (kysely-postgres-js calls
 * `reserve()`), and postgres.js 3.4.9 mishandles a reserved connection whose server goes
 * away (porsager/postgres#1154, #1208; no release fixes it):
 * - a statement sent on it after its socket closed (Kysely's ROLLBACK after the failed
 *   statement) is written from a setImmediate to a null socket: an uncaught TypeError that
 *   ends the process;
 * - released after its close, it goes back among the open connections without a socket,
 *   and the next request that takes it crashes the same way;
 * - the server's last error (57P01 "terminating connection") stays on the connection and is
 *   given to the first statement after it reconnects, another request's.
 * `npm run faults` found it: restarting PostgreSQL under traffic ended `npm start`.
 *
 * Here each reservation is a postgres.js instance of its own with one connection (lite's
 * options), so its close is known exactly (`onclose`). A reservation whose connection
 * closed after it sent a statement refuses every further statement with CONNECTION_CLOSED
 * (its transaction is gone) and never reaches the dead connection; an instance whose
 * connection closed is replaced by a fresh one before it is reserved again, so nothing of
 * the old connection is left. Guarded by tests/postgres/connection-loss.test.ts.
 */
import postgres from "postgres";
import type { PostgresConnection } from "@supabase/lite/postgres";

/**
 * The start of a statement whose answer its sender does not read (data-api-path.ts marks a
 * request's settings with it): it is sent at once and answered with the next statement.
 */
export const answeredWithNext = "/* answered with the next statement */ ";

/**
 * The start of an RPC's settings (data-api-path.ts marks them with it): answered with the
 * next statement, the RPC's call, which is sent with lite's read of the response settings
 * right behind it. That read changes nothing, so it may run before lite asks for it: lite
 * asks for it next (after the call's answer, `Qm` in lite 0.10), and its answer is there
 * without a round trip of its own. When lite sends anything else next (a ROLLBACK after a
 * failed call), the early answer is dropped and lite's statements go as they come.
 */
export const beforeAnRpcCall = `${answeredWithNext}/* before an RPC's call */ `;

/** lite's read of the response settings after an RPC's call, as this module sends it. */
export const responseSettingsRead = "select current_setting('response.status', true) as status, current_setting('response.headers', true) as headers";

/** Whether a statement is lite's read of the response settings (its text, case and whitespace aside). */
const isResponseSettingsRead = (text: string) =>
  text.length < 200 && text.replace(/\s+/g, " ").trim().toLowerCase() === responseSettingsRead;

/** One statement a reservation sent: its text, how many parameters, whether prepared (named). */
export interface SentStatement {
  text: string;
  parameters: number;
  prepared: boolean;
  /** Sent right behind the statement before it, unasked (the response settings' read): no round trip of its own. */
  early?: boolean;
}

interface Slot {
  sql: postgres.Sql;
  /** Its connection closed since it was last reserved. */
  closed: boolean;
  /** A statement was sent in the current reservation. */
  used: boolean;
  /** The connection closed after that: the reservation's session is gone. */
  lost: boolean;
}

/** The error postgres.js gives a statement on a closed connection. */
function connectionClosed(): Error {
  return Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED", errno: "CONNECTION_CLOSED" });
}

/**
 * Makes `connection.driver.reserve()` hand out connections of their own (as many as its
 * pool's `max`); returns what ends them.
 */
export function reserveOwnConnections(
  connection: PostgresConnection,
  observe?: (statement: SentStatement) => void,
  /** Prepared statements and BEGIN sent with the next statement (default); off: lite's own way (the bench's "before"). */
  mode: { cut: boolean } = { cut: true },
): { end(options: { timeout: number }): Promise<void> } {
  const driver = connection.driver;
  const instance = (slot: Slot): postgres.Sql => {
    // Parsed options (marked by `shared`) are taken as they are: lite's types and serializers.
    const sql: postgres.Sql = postgres({
      ...driver.options,
      max: 1,
      parameters: {},
      shared: { retries: 0, typeArrayMap: {} },
      onclose: () => {
        if (slot.sql !== sql) return;
        slot.closed = true;
        if (slot.used) slot.lost = true;
      },
    } as never);
    return sql;
  };
  const slots: Slot[] = Array.from({ length: driver.options.max }, () => {
    const slot = { closed: false, used: false, lost: false } as Slot;
    slot.sql = instance(slot);
    return slot;
  });
  const free = [...slots];
  const waiting: ((slot: Slot) => void)[] = [];

  Object.assign(driver, {
    reserve: async () => {
      const slot = free.pop() ?? (await new Promise<Slot>((resolve) => waiting.push(resolve)));
      if (slot.closed) {
        const old = slot.sql;
        slot.sql = instance(slot);
        void old.end({ timeout: 0 }).catch(() => undefined);
      }
      slot.closed = slot.used = slot.lost = false;
      let released = false;
      // Statements sent but not yet answered (a BEGIN, a request's settings): their answers are
      // awaited with the next statement's.
      let unanswered: Promise<unknown> | null = null;
      // The next statement is an RPC's call, to be followed by the response settings' read.
      let rpcCallNext = false;
      // That read, sent with the call and not yet asked for.
      let earlyRead: postgres.PendingQuery<postgres.Row[]> | null = null;
      return {
        unsafe: (text: string, params?: never[], queryOptions?: postgres.UnsafeQueryOptions) => {
          if (slot.lost) return Promise.reject(connectionClosed());
          slot.used = true;
          const parameters = params?.length ?? 0;
          if (earlyRead) {
            const read = earlyRead;
            earlyRead = null;
            if (parameters === 0 && isResponseSettingsRead(text)) return read;
            // Not asked for: its answer (or its failure in a failed transaction) is dropped.
            read.catch(() => undefined);
          }
          observe?.({ text, parameters, prepared: mode.cut && parameters > 0 });
          if (!mode.cut) return slot.sql.unsafe(text, params, queryOptions);
          // Statements with parameters are named and prepared once per connection (postgres.js
          // keeps them by text, as PostgREST does): one round trip each instead of two (lite's
          // unnamed statements were described first, then executed).
          const pending = slot.sql.unsafe(text, params, parameters > 0 ? { prepare: true, ...queryOptions } : queryOptions);
          const isRpcCall = rpcCallNext && !text.startsWith(answeredWithNext);
          if (text.startsWith(answeredWithNext)) rpcCallNext = text.startsWith(beforeAnRpcCall);
          else rpcCallNext = false;
          // postgres.js sends a statement when it is awaited; one that follows statements not yet
          // answered is sent now, right behind them (all in one write), not once they are answered.
          if (unanswered || isRpcCall) pending.execute();
          if (isRpcCall) {
            earlyRead = slot.sql.unsafe(responseSettingsRead);
            earlyRead.catch(() => undefined);
            observe?.({ text: responseSettingsRead, parameters: 0, prepared: false, early: true });
          }
          if ((text === "begin" && !unanswered) || text.startsWith(answeredWithNext)) {
            // Kysely awaits its BEGIN, and the stack its settings, before the next statement;
            // postgres.js writes statements back to back on one connection, so they are sent
            // now and answered with the next statement (one round trip for all). A failure of
            // one fails that next statement.
            pending.catch(() => undefined);
            const before = unanswered;
            unanswered = before ? before.then(() => pending) : pending;
            unanswered.catch(() => undefined);
            return Promise.resolve(Object.assign([], { command: text === "begin" ? "BEGIN" : "SELECT", count: 0 }));
          }
          if (!unanswered) return pending;
          const before = unanswered;
          unanswered = null;
          return before.then(
            () => pending,
            (error: unknown) => {
              pending.catch(() => undefined);
              throw error;
            },
          );
        },
        release: () => {
          if (released) return;
          released = true;
          earlyRead?.catch(() => undefined);
          earlyRead = null;
          rpcCallNext = false;
          const next = waiting.shift();
          if (next) next(slot);
          else free.push(slot);
        },
      };
    },
  });
  return {
    async end(options) {
      await Promise.all(slots.map((slot) => slot.sql.end(options)));
    },
  };
}
