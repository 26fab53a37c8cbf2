/**
 * What hosted Supabase does in front of Auth and the Data API, done by the local stack's
 * front because @supabase/lite runs no Auth hooks: the client's address comes from the
 * socket, never from the client; a direct password sign-in meets the same throttle and
 * lockout as the login RPC (the password-verification hook on hosted Supabase); and a
 * password is changed only through change_my_password, which checks the current one.
 */
import { BlockList, isIP } from "node:net";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, Hono } from "hono";
import type { Backend } from "./database.ts";
import { apiRefusal } from "./request-checks.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** The client's address as identifyClients found it. */
    clientAddress: string | null;
  }
}

/** bcrypt reads only the first 72 bytes of a password. */
const maxPasswordBytes = 72;

type Decision = { decision: "continue" } | { decision: "reject"; message: string };
type Gate = { gate: "open" } | { gate: "answered"; status: 400 | 429; message: string; retry_after_seconds?: number };

/** An address as written; an IPv4 address of a dual-stack socket as plain IPv4. */
function plainAddress(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
}

/**
 * The operator's trusted proxies (TRUSTED_PROXIES: addresses and CIDR ranges, separated by
 * commas or spaces; none by default). A wrong entry stops the start, saying which.
 */
export function trustedProxies(setting: string | undefined): BlockList {
  const list = new BlockList();
  for (const entry of (setting ?? "").split(/[\s,]+/).filter(Boolean)) {
    const [address, prefix, extra] = entry.split("/");
    const family = isIP(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const maxBits = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (bits !== undefined && !(Number.isInteger(bits) && bits >= 0 && bits <= maxBits) || prefix === "")) {
      throw new Error(`TRUSTED_PROXIES: "${entry}" is not an address or a CIDR range (like 10.0.0.0/8 or ::1)`);
    }
    const type = family === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  return list;
}

function isTrusted(proxies: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && proxies.check(address, family === 6 ? "ipv6" : "ipv4");
}

/**
 * The client's address: the socket's, unless the socket's peer is a trusted proxy; then the
 * address that proxy appended to X-Forwarded-For, walking the header from the right past
 * further trusted proxies (what a client wrote on the left is never taken). A trusted
 * proxy that appended nothing usable is taken as the client.
 */
export function forwardedClient(peer: string | null, forwardedFor: string | undefined, proxies: BlockList): string | null {
  if (peer === null || !isTrusted(proxies, peer)) return peer;
  let client = peer;
  const entries = (forwardedFor ?? "").split(",").map((entry) => plainAddress(entry.trim()));
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (!isIP(entry)) break;
    client = entry;
    if (!isTrusted(proxies, entry)) break;
  }
  return client;
}

/** Finds each request's client address once (forwardedClient), before anything reads it. */
export function identifyClients(front: Hono, proxies: BlockList): void {
  front.use("*", async (c, next) => {
    const socket = getConnInfo(c).remote.address;
    c.set("clientAddress", forwardedClient(socket ? plainAddress(socket) : null, c.req.header("x-forwarded-for"), proxies));
    await next();
  });
}

/** The client's address (identifyClients); without it, the socket's. */
export function clientAddress(c: Context): string | null {
  const known = c.get("clientAddress");
  if (known !== undefined) return known;
  const address = getConnInfo(c).remote.address;
  return address ? plainAddress(address) : null;
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
 * when the front has already read it. Without a body to put back, the incoming request
 * itself, its headers set in place: no copy of the request or its headers (issue 28; the
 * copy was a tenth of the front's time per request).
 */
export function clientRequest(c: Context, body?: string): Request {
  if (body !== undefined) return new Request(c.req.raw, { headers: clientHeaders(c), body });
  const headers = c.req.raw.headers;
  headers.delete("cf-connecting-ip");
  const address = clientAddress(c);
  if (address) headers.set("x-forwarded-for", address);
  else headers.delete("x-forwarded-for");
  return c.req.raw;
}

/** An Auth error shaped like lite's own (GoTrue's without the API-version header). */
const authError = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  apiRefusal("auth", status, code, message, headers);

/**
 * Auth's code routes (sign-up, e-mail codes and links, password recovery, verification,
 * resending, reauthentication codes): the product has no e-mail sign-in and no sign-up, and
 * Auth has no mailer, so they arm no code and create no user. A forgotten password is reset
 * through the product's own link instead (the password-reset function, 21_password_reset.sql).
 * The path is compared as lite's router could still route it: percent-decoded, any case,
 * repeated or trailing slashes.
 */
const codeRoutes = new Set(["signup", "otp", "magiclink", "recover", "verify", "resend", "reauthenticate"]);

function codeRoute(path: string): boolean {
  let decoded = path;
  for (let round = 0; round < 3; round += 1) {
    try {
      const next = decodeURIComponent(decoded);
      if (next === decoded) break;
      decoded = next;
    } catch {
      break;
    }
  }
  const match = /^\/auth\/v1\/([^/]+)$/.exec(decoded.toLowerCase().replace(/\/{2,}/g, "/").replace(/\/+$/, ""));
  return match !== null && codeRoutes.has(match[1].trim());
}

/** Refuses Auth's code routes, every method and spelling, before lite sees the request. */
export function refuseCodeRoutes(front: Hono): void {
  front.use("*", async (c, next) => {
    if (!codeRoute(new URL(c.req.url).pathname) && !codeRoute(c.req.path)) return next();
    return authError(
      403,
      "feature_disabled",
      "Sign-up and Auth's own e-mail codes and links are turned off: a forgotten password is reset through the app's own link (/forgot-password)",
    );
  });
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
