/**
 * What the local stack's front checks in a request before lite or the Edge Functions see
 * it (issue 23, items 9 and 15; Kong and PostgREST do the like on hosted Supabase):
 * - its size: a body above the caller's limit is refused with 413 before it is read (by
 *   Content-Length at once; a body without one is read only until it passes the limit);
 * - its JSON: nested deeper than maxJsonDepth (lite answered 100k levels with a 500
 *   "Maximum call stack size exceeded"), a NUL character in the Data API's text (PostgreSQL
 *   refused it with its raw 22021 text), or a value of the wrong type where Auth reads a
 *   text (a password sent as an array gave lite's 500);
 * each refusal in the shape of the API the path belongs to.
 * Also every /auth, /rest and /functions answer gets `X-Content-Type-Options: nosniff`
 * (Storage's answers get it with the rest of storageSecurityHeaders).
 * Guarded by tests/integration/front-security.test.ts.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { HttpBindings } from "@hono/node-server";
import type { Context, Hono } from "hono";
import type { LocalKeys } from "./env.ts";
import { verifiedTokens } from "./verified-tokens.ts";

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * Body limits. Anonymous callers send only sign-in sized bodies. A signed-in user's
 * largest JSON is an import batch: the client plans batches under 3 MiB and the server
 * refuses any above 4 MiB (import_limits().batch_bytes), so 8 MiB holds every batch the
 * server accepts with room for its JSON envelope. Uploads (Storage, the documents
 * function) keep Storage's 25 MiB limit for the file; the front allows 1 MiB of form
 * overhead above it, so the file's own limit still answers at 25 MiB.
 */
export const bodyLimits = {
  anonymous: 64 * KiB,
  signedInJson: 8 * MiB,
  signedInUpload: 26 * MiB,
} as const;

/**
 * A body over its limit is still read to its end and thrown away (never kept) up to this
 * size before the 413 is sent: a client that is still writing when the answer comes (fetch,
 * undici) otherwise sees the connection closed instead of the answer once the server stops
 * waiting for the rest (@hono/node-server gives it half a second). Past this, the front
 * answers at once and the connection is closed.
 */
export const discardUpTo = 32 * MiB;

/** How deep a JSON body may nest (the product's own bodies nest a few levels). */
export const maxJsonDepth = 256;

type Api = "auth" | "rest" | "storage" | "functions";

/** The API a path belongs to, or null (the app, the stack's own routes). */
export function apiOf(path: string): Api | null {
  const match = /^\/(auth|rest|storage|functions)\/v1(\/|$)/.exec(path);
  return match ? (match[1] as Api) : null;
}

/** A refusal in the shape of the API the path belongs to. */
export function apiRefusal(api: Api, status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  const body =
    api === "rest"
      ? { code, details: null, hint: null, message }
      : api === "auth"
        ? { code: status, error_code: code, msg: message }
        : api === "storage"
          ? { statusCode: String(status), error: code, message }
          : { success: false, error: message, code };
  const extra: Record<string, string> = api === "auth" ? { "x-sb-error-code": code } : {};
  return Response.json(body, { status, headers: { ...extra, ...headers } });
}

const tooLargeCodes: Record<Api, string> = {
  rest: "PGRST413",
  auth: "request_too_large",
  storage: "Payload too large",
  functions: "payload_too_large",
};

function tooLarge(api: Api, limit: number): Response {
  return apiRefusal(api, 413, tooLargeCodes[api], `The request body is larger than ${limit} bytes`);
}

/** The same secret, compared in constant time. */
export function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Whether the request is signed in: a valid user access token (signed with the project's
 * secret, not expired, role authenticated), a service-role token, or the secret key (the
 * Edge Functions' and the operator's tools' requests, e.g. Storage writes). A token is
 * verified once (verified-tokens.ts).
 */
function signedInCheck(keys: Pick<LocalKeys, "jwtSecret" | "secretKey">): (c: Context) => Promise<boolean> {
  const tokens = verifiedTokens(keys.jwtSecret);
  return async (c) => {
    const token = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    if (!token) return false;
    if (sameSecret(token, keys.secretKey)) return true;
    const payload = await tokens.claims(token);
    return payload !== null && (payload.role === "service_role" || (payload.role === "authenticated" && typeof payload.sub === "string"));
  };
}

/**
 * Reads a request's body from its socket: its bytes while they stay within `keepUpTo`
 * (null once past it; the rest is then read and thrown away, never kept, up to discardUpTo,
 * so that the refusal reaches a client still writing, and the stream is destroyed past
 * that). `whole`: the body was read to its end.
 */
function readBody(incoming: IncomingMessage, keepUpTo: number): Promise<{ bytes: Buffer | null; whole: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (answer: { bytes: Buffer | null; whole: boolean } | Error) => {
      incoming.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      if (answer instanceof Error) reject(answer);
      else resolve(answer);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= keepUpTo) chunks.push(chunk);
      else if (size > discardUpTo) {
        finish({ bytes: null, whole: false });
        incoming.destroy();
      }
    };
    const onEnd = () => finish({ bytes: size <= keepUpTo ? Buffer.concat(chunks, size) : null, whole: true });
    const onError = (error: Error) => finish(error);
    const onClose = () => finish(new Error("The client closed the connection before its body ended"));
    incoming.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
}

/**
 * The deepest nesting of a JSON text's arrays and objects, counted outside strings; stops
 * counting once past `limit`.
 */
export function jsonDepthAbove(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return false;
}

/** Whether a JSON text holds the escape \u0000 inside a string (a NUL character). */
export function jsonHasNul(text: string): boolean {
  for (let index = text.indexOf("\\u0000"); index >= 0; index = text.indexOf("\\u0000", index + 1)) {
    // An escaped backslash before it ("\\u0000" in JSON is the text \u0000): count them.
    let backslashes = 0;
    for (let before = index - 1; before >= 0 && text.charCodeAt(before) === 0x5c; before -= 1) backslashes += 1;
    if (backslashes % 2 === 0) return true;
  }
  return text.includes("\u0000");
}

/** Fields lite's Auth reads as text (GoTrue decodes them into Go strings and refuses any other type). */
const authTextFields = [
  "email",
  "password",
  "phone",
  "refresh_token",
  "token",
  "token_hash",
  "type",
  "nonce",
  "code_verifier",
  "auth_code",
  "redirect_to",
  "provider",
  "id_token",
  "access_token",
  "channel",
];

/** The Auth field of a JSON object body that is neither text nor null, if any. */
function wrongAuthField(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined; // lite answers invalid JSON itself (400 bad_json).
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const body = value as Record<string, unknown>;
  return authTextFields.find((field) => body[field] !== undefined && body[field] !== null && typeof body[field] !== "string");
}

const nulMessage = "Text may not contain the NUL character (\\u0000)";

/** The refusal of a JSON text the API must not see, or null. */
function jsonProblem(api: Api, text: string): Response | null {
  if (jsonDepthAbove(text, maxJsonDepth)) {
    const message = `The JSON body is nested too deeply (at most ${maxJsonDepth} levels)`;
    const code = { rest: "PGRST102", auth: "bad_json", storage: "InvalidRequest", functions: "invalid_input" }[api];
    return apiRefusal(api, 400, code, message);
  }
  // PostgreSQL's text cannot hold NUL: the code hosted PostgREST answers (22P05), in plain words.
  if (api === "rest" && jsonHasNul(text)) return apiRefusal(api, 400, "22P05", nulMessage);
  if (api === "auth") {
    const field = wrongAuthField(text);
    if (field) return apiRefusal(api, 400, "bad_json", `Could not parse request body as JSON: ${field} must be a string`);
  }
  return null;
}

/** Whether the body is JSON; Auth and the Data API read a body without a content type as JSON too. */
function isJson(c: Context, api: Api): boolean {
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type === "") return api === "auth" || api === "rest";
  return type === "application/json" || type.endsWith("+json") || type.startsWith("application/vnd.pgrst");
}

/** Every /auth, /rest and /functions answer, the front's own refusals too: never sniffed into another type. */
export function sniffNothing(front: Hono): void {
  for (const prefix of ["/auth/v1", "/rest/v1", "/functions/v1"]) {
    front.use(`${prefix}/*`, async (c, next) => {
      await next();
      try {
        c.res.headers.set("X-Content-Type-Options", "nosniff");
      } catch {
        // An answer whose headers are immutable (one fetched from elsewhere): a copy.
        c.res = new Response(c.res.body, c.res);
        c.res.headers.set("X-Content-Type-Options", "nosniff");
      }
    });
  }
}

/** Registers the checks; they must come before everything that reads a body or forwards it. */
export function checkRequests(front: Hono, keys: Pick<LocalKeys, "jwtSecret" | "secretKey">): void {
  const signedIn = signedInCheck(keys);
  front.use("*", async (c, next) => {
    const api = apiOf(c.req.path);
    if (!api) return next();
    // A NUL in the Data API's query string (filters, GET RPC arguments).
    if (api === "rest" && new URL(c.req.url).search.toLowerCase().includes("%00")) return apiRefusal(api, 400, "22P05", nulMessage);
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const incoming = (c.env as HttpBindings).incoming;

    const user = await signedIn(c);
    const limit = !user ? bodyLimits.anonymous : api === "storage" || api === "functions" ? bodyLimits.signedInUpload : bodyLimits.signedInJson;
    const declared = Number(c.req.header("content-length") ?? Number.NaN);
    if (declared > limit) {
      // Thrown away unread up to discardUpTo; a larger one is answered at once, its connection closed.
      const kept = declared <= discardUpTo && (await readBody(incoming, 0)).whole;
      const answer = tooLarge(api, limit);
      if (!kept) answer.headers.set("connection", "close");
      return answer;
    }
    const { bytes } = await readBody(incoming, limit);
    if (!bytes) return tooLarge(api, limit);

    if (isJson(c, api)) {
      const problem = jsonProblem(api, new TextDecoder().decode(bytes));
      if (problem) return problem;
    }
    // lite, Auth's checks and the functions read the body from here: @hono/node-server takes
    // an IncomingMessage's rawBody as the request's body, so no copy of the request and no
    // stream is made for it (request.text() and json() answer from these bytes).
    Object.assign(incoming, { rawBody: bytes });
    const headers = c.req.raw.headers;
    headers.delete("transfer-encoding");
    headers.set("content-length", String(bytes.byteLength));
    return next();
  });
}
