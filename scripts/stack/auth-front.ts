/**
 * What hosted Supabase does in front of Auth and the Data API, done by the local stack's
 * front because @supabase/lite runs no Auth hooks: the client's address comes from the
 * socket, never from the client; a direct password sign-in meets the same throttle and
 * lockout as the login RPC (the password-verification hook on hosted Supabase); and a
 * password is changed only through change_my_password, which checks the current one.
 */
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, Hono } from "hono";
import type { Backend } from "./database.ts";

/** bcrypt reads only the first 72 bytes of a password. */
const maxPasswordBytes = 72;

type Decision = { decision: "continue" } | { decision: "reject"; message: string };
type Gate = { gate: "open" } | { gate: "answered"; status: 400 | 429; message: string; retry_after_seconds?: number };

/** The socket's address; an IPv4 client of a dual-stack socket is told as plain IPv4. */
export function clientAddress(c: Context): string | null {
  const address = getConnInfo(c).remote.address;
  return address?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "") ?? null;
}

/**
 * The request's headers with X-Forwarded-For overwritten by the socket's address and no
 * CF-Connecting-IP (Cloudflare's header on hosted Supabase, which the database prefers).
 */
export function clientHeaders(c: Context): Headers {
  const headers = new Headers(c.req.raw.headers);
  headers.delete("cf-connecting-ip");
  const address = clientAddress(c);
  if (address) headers.set("x-forwarded-for", address);
  else headers.delete("x-forwarded-for");
  return headers;
}

/**
 * The client's request as lite should see it: X-Forwarded-For from the socket (lite hands
 * request headers to SQL, where private.client_address() reads it), and the body again
 * when the front has already read it.
 */
export function clientRequest(c: Context, body?: string): Request {
  return new Request(c.req.raw, { headers: clientHeaders(c), ...(body === undefined ? {} : { body }) });
}

/** An Auth error shaped like lite's own (GoTrue's without the API-version header). */
function authError(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ code: status, error_code: code, msg: message }, { status, headers: { "x-sb-error-code": code, ...headers } });
}

/** The request body as a JSON object, or undefined when it is not one. */
function jsonObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The one value of a single-row, single-column query. */
async function queryValue<T>(backend: Backend, text: string, params: unknown[]): Promise<T> {
  const [row] = await backend.sql.query<{ value: T }>(text, params);
  return row.value;
}

/** Registers the front's Auth routes; they must come before the routes forwarding /auth/v1 to lite. */
export function guardAuth(front: Hono, backend: Backend): void {
  /**
   * A password sign-in: first the database's gate (private.auth_sign_in_gate, the login
   * RPC's rule: a known account meets only its own lock and its own rate of right-password
   * sign-ins; an unknown email meets the address's and everyone's failure limits and is
   * answered like a wrong password; a running lock answers before any bcrypt work), then
   * lite's check, then the database's decision (lock, admin lock, disabled; an unknown
   * email's shadow count); a rejection ends the account's sessions in the database and
   * replaces lite's session with the refusal.
   */
  front.post("/auth/v1/token", async (c) => {
    if (c.req.query("grant_type") !== "password") return backend.api.fetch(clientRequest(c));
    const body = await c.req.text();
    const { email, password } = jsonObject(body) ?? {};
    if (typeof email !== "string" || typeof password !== "string") return backend.api.fetch(clientRequest(c, body));

    const address = clientAddress(c);
    // bcrypt reads 72 bytes: a longer password is never one that was set (as in the login RPC).
    if (Buffer.byteLength(password) > maxPasswordBytes) return authError(400, "invalid_credentials", "Invalid login credentials");
    const gate = await queryValue<Gate>(backend, "select private.auth_sign_in_gate($1, $2, $3::inet) as value", [email, password, address]);
    if (gate.gate === "answered") {
      if (gate.status === 429) {
        return authError(429, "over_request_rate_limit", gate.message, { "retry-after": String(gate.retry_after_seconds ?? 60) });
      }
      return authError(400, "invalid_credentials", gate.message);
    }
    const answer = await backend.api.fetch(clientRequest(c, body));
    const decision = await queryValue<Decision>(backend, "select private.auth_password_attempt($1, $2, $3::inet) as value", [
      email,
      answer.status === 200,
      address,
    ]);
    if (decision.decision === "reject") return authError(400, "invalid_credentials", decision.message);
    return answer;
  });

  /** A password change through Auth would skip the current-password check: refused. */
  front.put("/auth/v1/user", async (c) => {
    const body = await c.req.text();
    if (jsonObject(body)?.password !== undefined) {
      return authError(400, "reauthentication_needed", "Password update requires the current password: use the change_my_password RPC");
    }
    return backend.api.fetch(clientRequest(c, body));
  });
}
