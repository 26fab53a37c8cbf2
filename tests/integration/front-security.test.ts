/**
 * The local stack's front, second security pass (issue 23): Auth's code routes are refused
 * before lite sees them and no code reaches the log (item 1); bodies above the caller's
 * limit get 413 before they are read (item 9); too-deep JSON, NUL in the Data API's text
 * and non-text Auth fields get clean 400s in the API's own shape (item 15); the throttle's
 * address comes from the socket or a trusted proxy's appended entry (item 16); JSON answers
 * say nosniff. This file runs its own stack: it trusts a proxy (127.0.0.2) and reads the
 * stack's log.
 */
import { request } from "node:http";
import { randomUUID } from "node:crypto";
import type { App } from "@supabase/lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forwardedClient, trustedProxies } from "../../scripts/stack/auth-front.ts";
import { testKeys } from "../support/keys.ts";
import { bodyLimits } from "../../scripts/stack/request-checks.ts";
import { freePort } from "../../scripts/stack/free-port.ts";
import { startStack, type RunningStack } from "../../scripts/stack/server.ts";
import { signedInClient } from "../support/clients.ts";

let stack: RunningStack;
let port: number;
const keys = testKeys;

/** Everything the stack's process wrote to its log while a test ran. */
const captured: string[] = [];
const restores: (() => void)[] = [];

function captureLog() {
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[method];
    console[method] = (...args: unknown[]) => {
      captured.push(args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg) ?? String(arg))).join(" "));
      original.apply(console, args);
    };
    restores.push(() => (console[method] = original));
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      captured.push(String(chunk));
      return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    restores.push(() => (stream.write = original));
  }
}

beforeAll(async () => {
  port = await freePort();
  stack = await startStack({ port, seed: true, keys, trustedProxies: "127.0.0.2" });
  captureLog();
});

afterAll(async () => {
  for (const restore of restores) restore();
  await stack?.stop();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => Record<string, unknown>;
}

/**
 * A raw HTTP request (the path exactly as written; a body as one piece with its length, or
 * in chunks without one), optionally from another local address.
 */
function send(
  method: string,
  path: string,
  { headers = {}, body, chunks, from }: { headers?: Record<string, string>; body?: string | Buffer; chunks?: Buffer[]; from?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        localAddress: from,
        agent: false,
        headers: { apikey: keys.publishableKey, ...(body !== undefined ? { "content-length": String(Buffer.byteLength(body)) } : {}), ...headers },
      },
      (incoming) => {
        const parts: Buffer[] = [];
        incoming.on("data", (part: Buffer) => parts.push(part));
        incoming.on("end", () => {
          const text = Buffer.concat(parts).toString("utf8");
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    // The server may answer (413) and close before the whole body is written.
    const closedEarly = (error: NodeJS.ErrnoException) => ["EPIPE", "ECONNRESET"].includes(error.code ?? "");
    outgoing.on("error", (error: NodeJS.ErrnoException) => (closedEarly(error) ? undefined : reject(error)));
    outgoing.on("socket", (socket) => socket.on("error", () => undefined));
    if (body !== undefined) outgoing.end(body);
    else if (chunks) {
      void (async () => {
        for (const chunk of chunks) {
          if (outgoing.destroyed) return;
          if (!outgoing.write(chunk)) await new Promise((done) => outgoing.once("drain", done));
        }
        outgoing.end();
      })();
    } else outgoing.end();
  });
}

const json = { "content-type": "application/json" };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await stack.backend.sql.query<{ n: number }>(`select (${sql})::int as n`, params);
  return row.n;
}

/** Auth users, and those holding any armed code or link. */
const authState = async () => ({
  users: await count("select count(*) from auth.users"),
  armed: await count(`select count(*) from auth.users
    where coalesce(recovery_token, '') <> '' or coalesce(confirmation_token, '') <> ''
       or coalesce(email_change_token_new, '') <> '' or coalesce(email_change_token_current, '') <> ''
       or coalesce(reauthentication_token, '') <> '' or recovery_sent_at is not null`),
});

/** A six-digit run, as lite's codes are written ("…with this code: 904610"). */
const sixDigits = /(?<!\d)\d{6}(?!\d)/;

describe("Auth's code routes (item 1)", () => {
  const routes = ["signup", "otp", "magiclink", "recover", "verify", "resend", "reauthenticate"];
  const spellings = (route: string) => [
    `/auth/v1/${route}`,
    `/auth/v1/${route}/`,
    `/auth/v1//${route}`,
    `//auth/v1/${route}`,
    `/auth/v1/%${route.charCodeAt(0).toString(16)}${route.slice(1)}`,
    `/auth/v1/${route.toUpperCase()}`,
    `/auth/v1/${route}?redirect_to=http://evil.example`,
    `/auth/v1/./${route}`,
    `/auth/v1/x/../${route}`,
    `/auth/v1/x/%2e%2e/${route}`,
  ];

  it("refuses every route, method and spelling before lite: no code armed, no user made, nothing in the log", async () => {
    const { client } = await signedInClient(stack.url, "admin@demo.test", undefined, { organization: false });
    const token = (await client.auth.getSession()).data.session!.access_token;
    const before = await authState();
    captured.length = 0;
    const body = JSON.stringify({ email: "admin@demo.test", type: "recovery", token: "123456", password: "Demo.12345", create_user: true });
    for (const route of routes) {
      for (const path of spellings(route)) {
        for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
          for (const headers of [json, { ...json, ...bearer(token) }]) {
            const answer = await send(method, path, { headers, body: method === "GET" ? undefined : body });
            expect({ path, method, status: answer.status, body: answer.json() }).toEqual({
              path,
              method,
              status: 403,
              body: {
                code: 403,
                error_code: "feature_disabled",
                msg: "Sign-up and Auth's own e-mail codes and links are turned off: a forgotten password is reset through the app's own link (/forgot-password)",
              },
            });
          }
        }
      }
    }
    expect(await authState()).toEqual(before);
    expect(before.armed).toBe(0);
    expect(captured.join("\n")).not.toMatch(sixDigits);
  });

  it("keeps whatever asks lite's mailer for an e-mail from writing the message into the log", async () => {
    captured.length = 0;
    const app = stack.backend.api as unknown as App;
    await app.drivers.email.send({
      to: "admin@demo.test",
      subject: "Reset Your Password",
      text: "Reset your password with this code: 904610",
      html: "<p>904610</p>",
    });
    await app.drivers.sms.send({ to: "+905551112233", body: "Your code is 904610" });
    const log = captured.join("\n");
    expect(log).not.toContain("904610");
    expect(log).not.toContain("admin@demo.test");
  });

  it("still serves the routes the product uses (password sign-in, user, sign-out)", async () => {
    const { client } = await signedInClient(stack.url, "admin@demo.test", undefined, { organization: false });
    expect((await client.auth.getUser()).data.user?.email).toBe("admin@demo.test");
    expect((await client.auth.signOut({ scope: "local" })).error).toBeNull();
  });
});

describe("body size limits (item 9)", () => {
  const loginRpc = "/rest/v1/rpc/secure_login_prepare_auth";
  const bigLogin = (email: string, bytes: number) => JSON.stringify({ p_email: email, p_password: "x".repeat(bytes) });
  const attempts = (email: string) => count("select count(*) from private.login_attempts where email = $1", [email]);

  it("refuses a 24 MB anonymous body to the login RPC with 413 before it reaches the database", async () => {
    const email = `big-${randomUUID().slice(0, 8)}@test.example`;
    const answer = await send("POST", loginRpc, { headers: json, body: bigLogin(email, 24 * 1024 * 1024) });
    expect(answer.status).toBe(413);
    expect(answer.json()).toEqual({ code: "PGRST413", details: null, hint: null, message: `The request body is larger than ${bodyLimits.anonymous} bytes` });
    expect(await attempts(email)).toBe(0);
  });

  it("refuses a chunked anonymous body (no Content-Length) once it passes the limit", async () => {
    const email = `chunked-${randomUUID().slice(0, 8)}@test.example`;
    const text = Buffer.from(bigLogin(email, 24 * 1024 * 1024));
    const chunks = Array.from({ length: Math.ceil(text.length / 65_536) }, (_, index) => text.subarray(index * 65_536, (index + 1) * 65_536));
    const answer = await send("POST", loginRpc, { headers: { ...json, "transfer-encoding": "chunked" }, chunks });
    expect(answer.status).toBe(413);
    expect(answer.json()).toMatchObject({ code: "PGRST413" });
    expect(await attempts(email)).toBe(0);
  });

  it("answers 413 in each API's shape for anonymous callers; a small anonymous body still passes", async () => {
    const big = "x".repeat(bodyLimits.anonymous + 1);
    const auth = await send("POST", "/auth/v1/token?grant_type=password", { headers: json, body: big });
    expect([auth.status, auth.json()]).toEqual([413, { code: 413, error_code: "request_too_large", msg: `The request body is larger than ${bodyLimits.anonymous} bytes` }]);
    const storage = await send("POST", "/storage/v1/object/documents/x.pdf", { headers: { "content-type": "application/pdf" }, body: big });
    expect([storage.status, storage.json()]).toMatchObject([413, { statusCode: "413", error: "Payload too large" }]);
    const functions = await send("POST", "/functions/v1/documents", { headers: { "content-type": "application/pdf" }, body: big });
    expect([functions.status, functions.json()]).toMatchObject([413, { success: false, code: "payload_too_large" }]);

    const email = `small-${randomUUID().slice(0, 8)}@test.example`;
    const small = await send("POST", loginRpc, { headers: json, body: bigLogin(email, 100) });
    expect(small.status).toBe(200);
    expect(await attempts(email)).toBe(1);
  });

  it("lets a client that is still writing (fetch) read the 413, and gives the secret key the signed-in limits", async () => {
    // A fetch client reads the 413 of a body over the limit (the front throws the rest away
    // unkept, up to discardUpTo, rather than leave it to the server's half-second drain).
    const email = `fetch-${randomUUID().slice(0, 8)}@test.example`;
    const answer = await fetch(`${stack.url}${loginRpc}`, {
      method: "POST",
      headers: { apikey: keys.publishableKey, ...json },
      body: bigLogin(email, 4 * 1024 * 1024),
    });
    expect(answer.status).toBe(413);
    expect(await answer.json()).toMatchObject({ code: "PGRST413" });
    expect(await attempts(email)).toBe(0);

    // The secret key (Edge Functions, the operator's tools) writes Storage objects above the anonymous limit.
    const object = `${randomUUID()}.pdf`;
    const upload = await fetch(`${stack.url}/storage/v1/object/documents/${object}`, {
      method: "POST",
      headers: { apikey: keys.secretKey, ...bearer(keys.secretKey), "content-type": "application/pdf" },
      body: Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(bodyLimits.anonymous * 2, 0x20)]),
    });
    expect(upload.status).toBe(200);
    expect(await count("select count(*) from storage.objects where bucket_id = 'documents' and name = $1", [object])).toBe(1);
  });

  it("passes a signed-in import batch of realistic size (1,000 rows, about 3 MB)", async () => {
    const { session } = await signedInClient(stack.url, "admin@demo.test");
    const rows = Array.from({ length: 1_000 }, (_, index) => ({
      row: index + 2,
      values: { name: `Müşteri ${index} ${"ş".repeat(700)}`, city: "İstanbul", address: "Ç".repeat(700) },
    }));
    const body = JSON.stringify({ p_kind: "customers", p_mode: "create", p_match_key: null, p_rows: rows });
    expect(body.length).toBeGreaterThan(1_400_000);
    expect(Buffer.byteLength(body)).toBeGreaterThan(bodyLimits.anonymous * 40);
    const answer = await send("POST", "/rest/v1/rpc/check_import_rows", { headers: { ...json, ...bearer(session.access_token) }, body });
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ success: true });
  });

  it("lets a signed-in upload of 25 MiB plus form overhead through to the function; an anonymous one stops at the small limit", async () => {
    const { session } = await signedInClient(stack.url, "admin@demo.test");
    const body = Buffer.alloc(25 * 1024 * 1024 + 200 * 1024, 0x41);
    const signedIn = await send("POST", "/functions/v1/current-user", {
      headers: { "content-type": "application/octet-stream", ...bearer(session.access_token) },
      body,
    });
    expect(signedIn.status).not.toBe(413);
    const anonymous = await send("POST", "/functions/v1/current-user", { headers: { "content-type": "application/octet-stream" }, body });
    expect(anonymous.status).toBe(413);
    const overLimit = await send("POST", "/functions/v1/current-user", {
      headers: { "content-type": "application/octet-stream", ...bearer(session.access_token) },
      body: Buffer.alloc(bodyLimits.signedInUpload + 1, 0x41),
    });
    expect(overLimit.status).toBe(413);
  });
});

describe("clean 4xx instead of 500s (item 15)", () => {
  const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

  it("refuses 100k-deep JSON in each API's shape", async () => {
    const { session } = await signedInClient(stack.url, "admin@demo.test");
    const rest = await send("POST", "/rest/v1/rpc/export_records", {
      headers: { ...json, ...bearer(session.access_token) },
      body: `{"p_module":"customers","p_filters":${deep(100_000)}}`,
    });
    expect([rest.status, rest.json()]).toEqual([400, { code: "PGRST102", details: null, hint: null, message: "The JSON body is nested too deeply (at most 256 levels)" }]);
    const auth = await send("PUT", "/auth/v1/user", { headers: { ...json, ...bearer(session.access_token) }, body: `{"data":${deep(100_000)}}` });
    expect([auth.status, auth.json()]).toEqual([400, { code: 400, error_code: "bad_json", msg: "The JSON body is nested too deeply (at most 256 levels)" }]);
    const fn = await send("POST", "/functions/v1/current-user", { headers: { ...json, ...bearer(session.access_token) }, body: deep(100_000) });
    expect([fn.status, fn.json()]).toMatchObject([400, { success: false, code: "invalid_input" }]);
    // Depth the product uses passes.
    const shallow = await send("POST", "/rest/v1/rpc/export_records", {
      headers: { ...json, ...bearer(session.access_token) },
      body: JSON.stringify({ p_module: "customers", p_filters: {} }),
    });
    expect(shallow.status).toBe(200);
  });

  it("refuses a NUL in the Data API's text (body or query string) with a PostgREST 400", async () => {
    const { session } = await signedInClient(stack.url, "admin@demo.test");
    const expected = { code: "22P05", details: null, hint: null, message: "Text may not contain the NUL character (\\u0000)" };
    const body = await send("POST", "/rest/v1/rpc/export_records", {
      headers: { ...json, ...bearer(session.access_token) },
      body: '{"p_module":"customers","p_search":"a\\u0000b"}',
    });
    expect([body.status, body.json()]).toEqual([400, expected]);
    const query = await send("GET", "/rest/v1/rpc/list_customers?p_search=a%00b", { headers: bearer(session.access_token) });
    expect([query.status, query.json()]).toEqual([400, expected]);
    // A backslash before "u0000" is text, not a NUL.
    const text = await send("POST", "/rest/v1/rpc/export_records", {
      headers: { ...json, ...bearer(session.access_token) },
      body: '{"p_module":"customers","p_search":"a\\\\u0000b"}',
    });
    expect(text.status).toBe(200);
  });

  it("refuses a password (or e-mail) that is not text on the Auth token route with Auth's 400", async () => {
    for (const fields of [{ email: "admin@demo.test", password: ["Demo.1234"] }, { email: { a: 1 }, password: "x" }]) {
      const answer = await send("POST", "/auth/v1/token?grant_type=password", { headers: json, body: JSON.stringify(fields) });
      expect(answer.status).toBe(400);
      expect(answer.json()).toMatchObject({ code: 400, error_code: "bad_json" });
    }
  });
});

describe("the throttle's client address (item 16)", () => {
  const loginFrom = async (headers: Record<string, string>, from?: string) => {
    const email = `xff-${randomUUID().slice(0, 8)}@test.example`;
    const answer = await send("POST", "/rest/v1/rpc/secure_login_prepare_auth", {
      headers: { ...json, ...headers },
      body: JSON.stringify({ p_email: email, p_password: "Wrong.123" }),
      from,
    });
    expect(answer.status).toBe(200);
    const [row] = await stack.backend.sql.query<{ address: string }>("select host(client_address) as address from private.login_attempts where email = $1", [
      email,
    ]);
    return row.address;
  };

  it("ignores a client-sent X-Forwarded-For or cf-connecting-ip: the key is the socket's address", async () => {
    expect(await loginFrom({ "x-forwarded-for": "198.51.100.1" })).toBe("127.0.0.1");
    expect(await loginFrom({ "x-forwarded-for": "198.51.100.2, 198.51.100.3", "cf-connecting-ip": "198.51.100.4" })).toBe("127.0.0.1");
  });

  it("takes the entry a trusted proxy appended (the last), never the client's own first entry", async () => {
    expect(await loginFrom({ "x-forwarded-for": "198.51.100.1, 203.0.113.40" }, "127.0.0.2")).toBe("203.0.113.40");
    expect(await loginFrom({ "x-forwarded-for": "198.51.100.1, 203.0.113.41, 127.0.0.2" }, "127.0.0.2")).toBe("203.0.113.41");
    expect(await loginFrom({}, "127.0.0.2")).toBe("127.0.0.2");
  });

  it("walks X-Forwarded-For from the right past trusted proxies only", () => {
    const proxies = trustedProxies("10.0.0.0/8, 192.0.2.1 ::1");
    expect(forwardedClient("10.1.2.3", "6.6.6.6, 203.0.113.7, 10.9.9.9", proxies)).toBe("203.0.113.7");
    expect(forwardedClient("203.0.113.8", "6.6.6.6", proxies)).toBe("203.0.113.8");
    expect(forwardedClient("::1", "6.6.6.6, junk", proxies)).toBe("::1");
    expect(forwardedClient("192.0.2.1", undefined, proxies)).toBe("192.0.2.1");
    expect(forwardedClient("203.0.113.9", "1.1.1.1", trustedProxies(undefined))).toBe("203.0.113.9");
    expect(() => trustedProxies("10.0.0.0/33")).toThrow(/TRUSTED_PROXIES/);
    expect(() => trustedProxies("proxy.example")).toThrow(/TRUSTED_PROXIES/);
  });
});

describe("nosniff on JSON APIs", () => {
  it("answers /auth, /rest and /functions (and the front's own refusals) with X-Content-Type-Options: nosniff", async () => {
    const { session } = await signedInClient(stack.url, "admin@demo.test");
    for (const [method, path, headers] of [
      ["GET", "/auth/v1/health", {}],
      ["GET", "/auth/v1/user", bearer(session.access_token)],
      ["GET", "/rest/v1/rpc/list_customers", bearer(session.access_token)],
      ["GET", "/rest/v1/no_such_table", {}],
      ["GET", "/functions/v1/current-user", bearer(session.access_token)],
      ["POST", "/auth/v1/recover", json],
    ] as const) {
      const answer = await send(method, path, { headers });
      expect({ path, nosniff: answer.headers["x-content-type-options"] }).toEqual({ path, nosniff: "nosniff" });
    }
  });
});
