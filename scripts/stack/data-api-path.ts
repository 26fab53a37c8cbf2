/**
 * The Data API's path through @supabase/lite 0.10, cut to what PostgREST does (issue 28).
 * Set on lite's connection object by database.ts, for both backends:
 *
 * - A request's settings in ONE statement. lite sent ten: set_config for the role, the
 *   claims, the storage operation, then for an RPC the response and request settings, each a
 *   statement of its own (`applyJwtSessionContext`, `applyRpcRequestGucs`). Here one
 *   `select set_config(…), set_config(…), …` carries them all, with the same values, inside the
 *   request's transaction (`set_config('role', r, true)` is `SET LOCAL ROLE r`; an RPC that
 *   PostgREST runs read only gets `transaction_read_only` in the same statement).
 * (Organizations' schemas are kept out of lite's schema cache by the patch of lite's
 * introspection queries: patches/@supabase+lite+0.10.0.patch, README.)
 *
 * It reaches into lite's internals (method and property names of 0.10.0): the test that
 * counts statements per RPC (tests/postgres/data-api-statements.test.ts) fails when an
 * upgrade renames them.
 */
import { sql } from "kysely";

/** The request context lite hands `withContext` (the parts it reads for the settings). */
interface RequestContext {
  auth?: { role?: string; uid?: unknown; jwt?: unknown };
  storage?: { operation?: unknown };
}

/** What lite says about an RPC request (`withContext`'s `rpc` option). */
interface RpcRequest {
  method: string;
  path: string;
  requestHeaders?: Record<string, string>;
  readOnly?: boolean;
}

type Executor = Parameters<ReturnType<typeof sql>["execute"]>[0];

interface WithContextOptions {
  transaction?: Executor;
  rpc?: RpcRequest;
  forceRollback?: boolean;
}

/** The parts of lite's PostgreSQL and PGlite connections this module replaces or reads. */
interface LiteConnection {
  kysely: { transaction(): { execute<T>(work: (tx: Executor) => Promise<T>): Promise<T> } };
  harnessHoldingOuterTx?: boolean;
  ensureRlsContext(): Promise<boolean>;
  withContext<T>(context: RequestContext | undefined, work: (executor: Executor) => Promise<T>, options?: WithContextOptions): Promise<T>;
  applyJwtSessionContext(executor: Executor, context: RequestContext, setRole: boolean): Promise<void>;
}

/** The API roles; any other role a token names is switched to as well (lite's rule). */
const apiRoles = new Set(["anon", "authenticated", "service_role"]);
const isCustomRole = (role: unknown) => typeof role === "string" && /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(role) && !apiRoles.has(role);

/**
 * The one statement that sets a request's context: lite's values under lite's names. Its
 * text depends only on which settings are present, so each variant is prepared once per
 * connection.
 */
export function settingsStatement(context: RequestContext | undefined, rpc: RpcRequest | undefined) {
  const calls: ReturnType<typeof sql>[] = [];
  const set = (name: string, value: string) => calls.push(sql`set_config(${sql.lit(name)}, ${value}, true)`);
  const constant = (name: string, value: string) => calls.push(sql`set_config(${sql.lit(name)}, ${sql.lit(value)}, true)`);
  if (context) {
    const auth = context.auth;
    const role = auth?.role || "anon";
    set("role", role);
    set("request.jwt.claim.sub", String(auth?.uid ?? ""));
    set("request.jwt.claim.role", role);
    set("storage.operation", String(context.storage?.operation ?? ""));
    if (auth?.jwt && typeof auth.jwt === "object") set("request.jwt.claims", JSON.stringify(auth.jwt));
  }
  if (rpc) {
    constant("response.status", "");
    constant("response.headers", "");
    set("request.method", rpc.method);
    set("request.path", rpc.path);
    set("request.headers", JSON.stringify(rpc.requestHeaders ?? {}));
    if (rpc.readOnly) constant("transaction_read_only", "on");
  }
  return calls.length === 0 ? null : sql`select ${sql.join(calls)}`;
}

async function applySettings(executor: Executor, context: RequestContext | undefined, rpc: RpcRequest | undefined): Promise<void> {
  await settingsStatement(context, rpc)?.execute(executor);
}

/** lite's withContext and applyJwtSessionContext with the request's settings in one statement. */
export function settingsInOneStatement(connection: LiteConnection): void {
  const original = connection.withContext.bind(connection);
  connection.applyJwtSessionContext = (executor, context) => applySettings(executor, context, undefined);
  connection.withContext = async (context, work, options) => {
    const rpc = options?.rpc;
    // Everything but a plain RPC (an outer transaction, a forced rollback, the spec harness) is lite's own path.
    if (!rpc || options?.transaction || options?.forceRollback || connection.harnessHoldingOuterTx) return original(context, work, options);
    const withClaims = context !== undefined && ((await connection.ensureRlsContext()) || isCustomRole(context.auth?.role || "anon"));
    return connection.kysely.transaction().execute(async (tx) => {
      await applySettings(tx, withClaims ? context : undefined, rpc);
      return work(tx);
    });
  };
}
