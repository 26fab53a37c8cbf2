/**
 * The Data API's path through @supabase/lite 0.10, cut to what PostgREST does (issue 28).
 * Set on lite's connection object by database.ts, for both backends:
 *
 * - A request's settings in ONE statement. lite sent ten: set_config for the role, the
 *   claims, the storage operation, then for an RPC the response and request settings, each a
 *   statement of its own (`applyJwtSessionContext`, `applyRpcRequestGucs`). Here one
 *   `select set_config(…), set_config(…), …` carries them all, with the same values, inside the
 *   request's transaction (`set_config('role', r, true)` is `SET LOCAL ROLE r`; an RPC that
 *   PostgREST runs read only gets `transaction_read_only` in the same statement). Built once
 *   per variant, never compiled per request; on PostgreSQL it travels with the BEGIN and the
 *   call and is answered with the call; an RPC's settings are marked so that lite's read of
 *   the response settings goes along too (postgres-reservations.ts): one round trip for the
 *   four, then COMMIT.
 * (Organizations' schemas are kept out of lite's schema cache by the patch of lite's
 * introspection queries: patches/@supabase+lite+0.10.0.patch, README.)
 *
 * It reaches into lite's internals (method and property names of 0.10.0): the test that
 * counts statements per RPC (tests/postgres/data-api-statements.test.ts) fails when an
 * upgrade renames them.
 */
import { CompiledQuery } from "kysely";
import { answeredWithNext, beforeAnRpcCall } from "./postgres-reservations.ts";

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

/** What lite hands as a transaction or connection: a Kysely instance or transaction. */
interface Executor {
  executeQuery(query: CompiledQuery): Promise<unknown>;
}

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

/** Statement texts by the settings they carry (a handful of variants, each prepared once per connection). */
const settingsTexts = new Map<string, string>();

/**
 * The one statement that sets a request's context: lite's values under lite's names, as a
 * compiled query (its text depends only on which settings are present, so it is built once
 * per variant and never compiled per request). It is marked to be answered with the next
 * statement (postgres-reservations.ts): nobody reads its answer.
 */
function settingsStatement(context: RequestContext | undefined, rpc: RpcRequest | undefined): CompiledQuery | null {
  const names: string[] = [];
  const values: string[] = [];
  const set = (name: string, value: string) => {
    names.push(name);
    values.push(value);
  };
  if (context) {
    const auth = context.auth;
    const role = auth?.role || "anon";
    set("role", role);
    set("request.jwt.claim.sub", String(auth?.uid ?? ""));
    set("request.jwt.claim.role", role);
    set("storage.operation", String(context.storage?.operation ?? ""));
    if (auth?.jwt && typeof auth.jwt === "object") set("request.jwt.claims", JSON.stringify(auth.jwt));
  }
  // The response settings start empty; an RPC that PostgREST runs read only is read only.
  const constants: [string, string][] = rpc ? [["response.status", ""], ["response.headers", ""]] : [];
  if (rpc) {
    set("request.method", rpc.method);
    set("request.path", rpc.path);
    set("request.headers", JSON.stringify(rpc.requestHeaders ?? {}));
    if (rpc.readOnly) constants.push(["transaction_read_only", "on"]);
  }
  if (names.length + constants.length === 0) return null;
  const key = `${names.join(",")}|${constants.map(([name]) => name).join(",")}`;
  let text = settingsTexts.get(key);
  if (!text) {
    const calls = [
      ...names.map((name, index) => `set_config('${name}', $${index + 1}, true)`),
      ...constants.map(([name, value]) => `set_config('${name}', '${value}', true)`),
    ];
    text = `${rpc ? beforeAnRpcCall : answeredWithNext}select ${calls.join(", ")}`;
    settingsTexts.set(key, text);
  }
  return CompiledQuery.raw(text, values);
}

async function applySettings(executor: Executor, context: RequestContext | undefined, rpc: RpcRequest | undefined): Promise<void> {
  const statement = settingsStatement(context, rpc);
  if (statement) await executor.executeQuery(statement);
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
