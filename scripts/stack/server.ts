/**
 * The whole local product on ONE origin: /auth/v1, /rest/v1 and /storage/v1 go to
 * @supabase/lite, /functions/v1 to the Deno edge runtime, everything else to the built app.
 * Requests reach lite and the functions with the client's address from the socket, and
 * Auth's password routes pass the database's lockout first (auth-front.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { hkdfSync } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { serve, type ServerType } from "@hono/node-server";
import { Hono, type Context } from "hono";
import { errors as joseErrors, jwtVerify } from "jose";
import { clientAddress, clientHeaders, clientRequest, guardAuth, identifyClients, refuseCodeRoutes, trustedProxies } from "./auth-front.ts";
import { backupSummary, writeBackup } from "./backup.ts";
import { freePort } from "./free-port.ts";
import { openBackend, type Backend, type DatabaseOptions } from "./database.ts";
import { isPublishedKey, projectRoot, type LocalKeys } from "./env.ts";
import { apiOf, apiRefusal, checkRequests, sameSecret, sniffNothing } from "./request-checks.ts";
import { startMailCatcher, type MailCatcher } from "./mail-catcher.ts";
import { startDigestCalls, startScheduledJobs } from "./scheduled-jobs.ts";
import { appShell, staticFiles } from "./static-files.ts";

export interface StackOptions extends DatabaseOptions {
  port: number;
  host?: string;
  /**
   * The keys it runs on: the installation's (`npm start`: env.ts's installationKeys) or the
   * tests' (tests/support/keys.ts). Always given, so that no stack falls back on a default.
   */
  keys: LocalKeys;
  /** Serve dist/ (the built app). Off for API-only test stacks. */
  serveApp?: boolean;
  /**
   * The proxies whose X-Forwarded-For entry names the client (addresses and CIDR ranges,
   * separated by commas or spaces); default: the TRUSTED_PROXIES environment value, else none.
   */
  trustedProxies?: string;
  /** The local mail server's SMTP port (mail-catcher.ts); default: any free one. */
  mailPort?: number;
}

export interface RunningStack {
  url: string;
  keys: LocalKeys;
  backend: Backend;
  /** The local mail server: every message the product sends is kept there. */
  mail: MailCatcher;
  stop(): Promise<void>;
}

const apiPrefixes = ["/auth/v1", "/rest/v1", "/storage/v1"];

/** Put in the app shell: lite has no Realtime server (the name and value src/lib/realtime.ts reads). */
export const realtimeUnavailableMeta = '<meta name="supabase-realtime" content="unavailable" />';

/**
 * Counts the requests the front is still answering, so that stopping waits for them before
 * the database closes: a client that went away (a load test ending, a closed tab) leaves its
 * request running in lite, and closing the database under it printed its driver's errors
 * (CONNECTION_ENDED) on every stop under traffic. Guarded by tests/postgres/connection-loss.test.ts.
 */
function countAnswers(front: Hono): { settled(timeoutMs: number): Promise<void> } {
  let open = 0;
  let waiting: (() => void)[] = [];
  front.use("*", async (_c, next) => {
    open += 1;
    try {
      await next();
    } finally {
      open -= 1;
      if (open === 0) {
        for (const resolve of waiting) resolve();
        waiting = [];
      }
    }
  });
  return {
    settled(timeoutMs) {
      if (open === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/**
 * lite 0.10 answers a signing request with `signedUrl: "/storage/v1/object/sign/…"`; Supabase
 * Storage (and so supabase-js's createSignedUrl/createSignedUrls, which prepend the storage
 * URL) says `signedURL: "/object/sign/…"`. Without this, createSignedUrl gave ".../storage/v1undefined".
 * Guarded by tests/integration/documents.test.ts, which downloads through signed URLs.
 */
async function upstreamSignedUrls(answer: Response): Promise<Response> {
  if (!answer.ok) return answer;
  const upstream = (entry: { signedUrl?: string | null }) => ({
    ...entry,
    signedURL: entry.signedUrl ? entry.signedUrl.replace(/^\/storage\/v1\//, "/") : null,
  });
  const body = (await answer.json()) as { signedUrl?: string } | { signedUrl?: string | null }[];
  const headers = new Headers(answer.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(Array.isArray(body) ? body.map(upstream) : upstream(body)), { status: answer.status, headers });
}

/**
 * What postgres.js and PostgreSQL say when the database cannot be reached or went away:
 * the driver's codes, SQLSTATE class 08 and 57P01-57P03, as an error's code or in its text.
 */
const unavailableCodes = /^(CONNECTION_(CLOSED|ENDED|DESTROYED)|CONNECT_TIMEOUT|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|57P0[123]|08[0-9A-Z]{3})$/;
const unavailableText =
  /\b(CONNECTION_(CLOSED|ENDED|DESTROYED)|CONNECT_TIMEOUT|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT)\b|"code":"(57P0[123]|08[0-9A-Z]{3})"|terminating connection|the database system is (starting up|shutting down|in recovery)/;

function databaseUnavailable(error: unknown): boolean {
  for (let cause = error; typeof cause === "object" && cause !== null; cause = (cause as { cause?: unknown }).cause) {
    if (unavailableCodes.test(String((cause as { code?: unknown }).code))) return true;
  }
  return false;
}

/**
 * A failed request in the JSON of the API it was for (PostgREST's, Auth's, Storage's, an
 * Edge Function's envelope): 503 when the database cannot be reached, so that a client may
 * try again, else 500. The error itself goes to the log only.
 */
function failureAnswer(path: string, unavailable: boolean): Response {
  const status = unavailable ? 503 : 500;
  const message = unavailable ? "The service is not available; try again shortly" : "Internal server error";
  const api = apiOf(path);
  if (api === "rest") return apiRefusal(api, status, unavailable ? "PGRST000" : "PGRSTX00", message);
  if (api === "auth") return apiRefusal(api, status, "unexpected_failure", message);
  if (api === "storage") return apiRefusal(api, status, unavailable ? "DatabaseUnavailable" : "InternalError", message);
  return Response.json({ success: false, error: message }, { status });
}

/** Whether the database answers a trivial query within two seconds. */
async function databaseAnswers(backend: Backend): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 2_000)));
  try {
    return await Promise.race([backend.sql.query("select 1").then(() => true, () => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The one place where lite's failed answers on /auth, /rest and /storage are made into what
 * hosted Supabase answers:
 * - an RPC argument of the wrong type for the embedded database: PGlite's own encoder
 *   refuses it (a string for a boolean: "Invalid input for boolean type") before PostgreSQL
 *   sees it, and lite answers a 500; PostgREST hands the text to PostgreSQL, which refuses
 *   it with a 400 (22P02); so does this (found by `npm run fuzz`; guarded by
 *   tests/integration/stack.test.ts);
 * - the database gone (PostgreSQL restarting): lite answers with the driver's own words
 *   (500 `{"code":"SUP","message":"Error: write CONNECTION_CLOSED"}`), with a bare 500 (the
 *   Data API's plain-text "Internal Server Error", Auth's "server_error"), or lets the error
 *   through, which Hono answered as a plain-text 500. Such an answer becomes failureAnswer's:
 *   503 when the driver's words say so, or the database does not answer a trivial query now
 *   or did not within the last 30 s; else a 500 in JSON (a JSON 500 that is not about the
 *   database is kept). Found by `npm run faults`; guarded by tests/postgres/connection-loss.test.ts.
 */
function translateLiteFailures(front: Hono, backend: Backend): void {
  // When the database was last found unreachable: a bare 500 shortly after (its request
  // failed while it was down, the check comes after its return) is put down to it too.
  let lastUnavailable = -Infinity;
  const unavailableNow = async (known: boolean) => {
    if (known || !(await databaseAnswers(backend))) lastUnavailable = performance.now();
    return performance.now() - lastUnavailable < 30_000;
  };
  front.onError(async (error, c) => {
    console.error(`${c.req.method} ${c.req.path} failed:`, error);
    return failureAnswer(c.req.path, await unavailableNow(databaseUnavailable(error)));
  });
  for (const prefix of apiPrefixes) {
    front.use(`${prefix}/*`, async (c, next) => {
      await next();
      if (c.res.status < 500) return;
      const text = await c.res.clone().text();
      const wrongType = c.req.path.startsWith("/rest/v1/rpc/") ? /"message":"Error: Invalid input for (\w+) type"/.exec(text)?.[1] : undefined;
      const unavailable = !wrongType && (await unavailableNow(unavailableText.test(text)));
      if (!wrongType && !unavailable && text.startsWith("{")) return;
      // Unset first: Hono copies the headers of the answer it replaces (its content-length too).
      c.res = undefined;
      c.res = wrongType
        ? Response.json({ code: "22P02", details: null, hint: null, message: `invalid input syntax for type ${wrongType}` }, { status: 400 })
        : failureAnswer(c.req.path, unavailable);
    });
  }
}

/**
 * Every Storage answer (files served from the app's own origin): never sniffed into another
 * type; in a document of its own, no scripts, plugins, forms or requests of its own, an
 * opaque origin (sandbox: no access to the app's storage or cookies), framed only by this
 * origin (the preview). Chromium's PDF viewer still shows a PDF under this policy (it does
 * not under frame-ancestors 'none'). Guarded by tests/integration/documents.test.ts and the
 * preview step of e2e/documents.spec.ts.
 */
export const storageSecurityHeaders: Record<string, string> = {
  "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox",
  "X-Content-Type-Options": "nosniff",
};

/** The longest life of a signed Storage URL the front serves (the app asks for 60 s; see item 7 of issue 23). */
export const maxSignedUrlSeconds = 60;

/** Storage's own error shape, for the signed download route. */
const storageRefusal = (status: 400 | 403, error: string, message: string) => apiRefusal("storage", status, error, message);

/**
 * A signed download URL checked before lite serves it (GET /storage/v1/object/sign/…):
 * - a bad or expired token: Storage's own 400 InvalidJWT (lite let the token library's error
 *   through as a 500);
 * - a token signed for longer than 60 seconds (whoever asked for it): 400;
 * - an object of the documents bucket: only through a signing the documents function
 *   recorded (private.document_download_allowed), and only while its signer may still read
 *   it: 403 once the document is deleted or the signer is deactivated, locked, no longer a
 *   member, without permission or signed out.
 */
async function signedDownloadProblem(c: Context, backend: Backend, jwtSecret: string): Promise<Response | null> {
  const token = c.req.query("token");
  if (!token) return null; // lite answers "Missing token" (400) itself.
  let payload: { iat?: unknown; exp?: unknown; bucket?: unknown };
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(jwtSecret), { algorithms: ["HS256"] }));
  } catch (error) {
    const message = error instanceof joseErrors.JWTExpired ? "jwt expired" : "invalid signature";
    return storageRefusal(400, "InvalidJWT", message);
  }
  const { iat, exp } = payload;
  if (typeof exp !== "number" || typeof iat !== "number" || exp - iat > maxSignedUrlSeconds) {
    return storageRefusal(400, "InvalidJWT", `signed URLs live at most ${maxSignedUrlSeconds} seconds`);
  }
  // lite's token names its bucket (and lite serves it only for that bucket and path).
  if (payload.bucket === "documents" || new URL(c.req.url).pathname.startsWith("/storage/v1/object/sign/documents/")) {
    const [row] = await backend.sql.query<{ value: boolean }>("select private.document_download_allowed($1) as value", [token]);
    if (row?.value !== true) return storageRefusal(403, "AccessDenied", "This download is no longer allowed");
  }
  return null;
}

/** Whether the request comes from this machine (the client's address, as identifyClients found it). */
function fromThisMachine(c: Context): boolean {
  return ["127.0.0.1", "::1"].includes(clientAddress(c) ?? "");
}

/** Whether the request carries the installation's secret key as its bearer token. */
function withSecretKey(c: Context, keys: LocalKeys): boolean {
  return sameSecret(/^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1] ?? "", keys.secretKey);
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] ?? character);

/** The caught messages as a plain page, newest first: every text escaped, no script, attachments by link. */
function inboxPage(mail: MailCatcher): string {
  const rows = mail.messages().map((message) => {
    const attachments = message.attachments
      .map((attachment, index) =>
        `<a href="/_stack/mail/inbox/${message.id}/attachments/${index}">${escapeHtml(attachment.filename ?? `ek ${index + 1}`)}</a> (${Math.ceil(attachment.size / 1024)} KB)`)
      .join(", ");
    return `<article><h2>${escapeHtml(message.subject ?? "(konu yok)")}</h2>
<p><b>Kimden:</b> ${escapeHtml(message.from ?? "")} · <b>Kime:</b> ${escapeHtml(message.envelope.to.join(", "))} · ${escapeHtml(message.receivedAt)}</p>
${attachments ? `<p><b>Ekler:</b> ${attachments}</p>` : ""}<pre>${escapeHtml(message.text ?? "")}</pre></article>`;
  });
  return `<!doctype html><html lang="tr"><head><meta charset="utf-8"><title>Yerel posta kutusu</title>
<style>body{font:15px system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}article{border-top:1px solid #ccc;padding:.5rem 0}pre{white-space:pre-wrap}</style></head>
<body><h1>Yerel posta kutusu</h1><p>Bu makinedeki posta sunucusunun (SMTP 127.0.0.1:${mail.port}) tuttuğu iletiler, en yenisi üstte. Hiçbiri gönderilmedi.</p>
${rows.join("\n") || "<p>Henüz ileti yok.</p>"}</body></html>`;
}

/** One attachment of a caught message, or 404. */
function attachmentAnswer(c: Context, mail: MailCatcher): Response {
  const found = mail.attachment(c.req.param("id") ?? "", Number(c.req.param("index")));
  if (!found) return c.json({ message: "No such message or attachment" }, 404);
  const name = (found.meta.filename ?? "attachment").replace(/[^\w.-]+/g, "_");
  return new Response(new Uint8Array(found.content), {
    headers: { "content-type": found.meta.contentType, "content-disposition": `attachment; filename="${name}"`, "x-content-type-options": "nosniff" },
  });
}

/**
 * The local mail server's messages (mail-catcher.ts), for tests and for a person trying the
 * product: GET /_stack/mail (JSON), GET /_stack/mail/:id/attachments/:index (bytes) and
 * DELETE /_stack/mail (empties it), from this machine with the installation's secret key;
 * GET /_stack/mail/inbox, the same as a page, from this machine only (it is what a person
 * opens in the browser; the messages never left this machine either).
 */
function serveCaughtMail(front: Hono, mail: MailCatcher, keys: LocalKeys) {
  const refusal = (c: Context, withKey: boolean) =>
    !fromThisMachine(c) ? c.json({ message: "The local mail is read only from this machine" }, 403)
      : withKey && !withSecretKey(c, keys) ? c.json({ message: "The secret key is required" }, 401) : null;
  front.get("/_stack/mail", (c) => refusal(c, true) ?? c.json({ messages: mail.messages() }));
  front.delete("/_stack/mail", (c) => refusal(c, true) ?? (mail.clear(), c.body(null, 204)));
  front.get("/_stack/mail/:id/attachments/:index", (c) => refusal(c, true) ?? attachmentAnswer(c, mail));
  front.get("/_stack/mail/inbox", (c) =>
    refusal(c, false) ??
    c.html(inboxPage(mail), 200, {
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      "X-Content-Type-Options": "nosniff",
    }));
  front.get("/_stack/mail/inbox/:id/attachments/:index", (c) => refusal(c, false) ?? attachmentAnswer(c, mail));
}

/**
 * POST /_stack/backup: a consistent backup of the running product, streamed back as its
 * .tar.gz (backup.ts). `npm run db:backup` asks for it because the embedded database opens
 * in one process only. Answered only to this machine and only with the installation's own
 * secret key (which reads everything through the Data API anyway): a product running on a
 * published secret key (env.ts's list: the old `.env.example` one, the tests') gives no
 * backup at all, whoever asks. The archive's temporary file (mode 600, in a folder of mode
 * 700: it holds password hashes) is removed once sent. Guarded by tests/postgres/backup.test.ts
 * and tests/integration/installation-keys.test.ts.
 */
async function backupAnswer(c: Context, backend: Backend, keys: LocalKeys, description: string): Promise<Response> {
  if (!fromThisMachine(c)) return c.json({ message: "Backups are taken only from this machine" }, 403);
  if (isPublishedKey(keys.secretKey)) {
    return c.json({ message: "Backups are refused: this product runs on a published secret key; give it its own (README, \"Keys\")" }, 403);
  }
  if (!withSecretKey(c, keys)) return c.json({ message: "The secret key is required" }, 401);
  // mkdtemp makes its folder with mode 700.
  const folder = await mkdtemp(join(tmpdir(), "crm-backup-answer-"));
  const file = join(folder, "backup.tar.gz");
  try {
    const manifest = await writeBackup({ sql: backend.sql, storage: backend.storage, description }, file);
    const stream = createReadStream(file);
    stream.once("close", () => void rm(folder, { recursive: true, force: true }));
    return new Response(Readable.toWeb(stream) as ReadableStream, {
      headers: {
        "content-type": "application/gzip",
        "x-backup-summary": JSON.stringify(backupSummary(manifest)),
      },
    });
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    console.error("backup failed:", error);
    return c.json({ message: "The backup could not be written; the product's log says why" }, 500);
  }
}

async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Edge runtime exited with code ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error("Edge runtime did not start in time");
}

/**
 * Starts Deno serving supabase/functions with the environment Supabase gives functions, and
 * the mail function's secrets: its sealing key (derived from the installation's JWT secret,
 * so it stays the same across starts and differs between installations) and, as the
 * installation's mail, the local mail server (an organization without SMTP settings of its
 * own sends there). Set in the environment, SMTP_HOST and the other SMTP_* settings win.
 * SITE_URL, the app's address that password-reset links open, is the stack's own address
 * unless set in the environment.
 */
async function startEdgeRuntime(publicUrl: string, keys: LocalKeys, mailPort: number, databaseUrl?: string) {
  const port = await freePort();
  const deno = `${projectRoot}node_modules/.bin/deno`;
  const child = spawn(
    deno,
    ["run", "--quiet", "--unstable-no-legacy-abort", "--allow-net", "--allow-env", "--allow-read", "--allow-sys", "scripts/stack/functions-main.ts"],
    {
      cwd: projectRoot,
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        ...process.env,
        EDGE_RUNTIME_PORT: String(port),
        EDGE_RUNTIME_JWT_SECRET: keys.jwtSecret,
        SUPABASE_URL: publicUrl,
        SUPABASE_ANON_KEY: keys.publishableKey,
        SUPABASE_PUBLISHABLE_KEY: keys.publishableKey,
        SUPABASE_SERVICE_ROLE_KEY: keys.secretKey,
        SUPABASE_SECRET_KEY: keys.secretKey,
        ...(databaseUrl ? { SUPABASE_DB_URL: databaseUrl } : {}),
        SITE_URL: process.env.SITE_URL ?? publicUrl,
        MAIL_SETTINGS_KEY: Buffer.from(hkdfSync("sha256", keys.jwtSecret, "satis-crm", "mail-settings-key", 32)).toString("base64"),
        ...(process.env.SMTP_HOST
          ? {}
          : { SMTP_HOST: "127.0.0.1", SMTP_PORT: String(mailPort), SMTP_SECURITY: "none", SMTP_FROM: "Satış CRM <no-reply@satis-crm.local>" }),
      },
    },
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${origin}/functions/v1/`, child, 60_000);
  return { origin, child };
}

const securityHeaders: Record<string, string> = {
  "Content-Security-Policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
    "font-src 'self' data:; connect-src 'self'; frame-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
};

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const keys = options.keys;
  const proxies = trustedProxies(options.trustedProxies ?? process.env.TRUSTED_PROXIES);
  const host = options.host ?? "127.0.0.1";
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${options.port}`;
  const backend = await openBackend(options, keys);
  const mail = await startMailCatcher({ port: options.mailPort });
  const edge = await startEdgeRuntime(url, keys, mail.port, options.databaseUrl);

  const front = new Hono();
  const answering = countAnswers(front);
  // Who the client is, then what the front refuses before anything reads a body.
  identifyClients(front, proxies);
  sniffNothing(front);
  refuseCodeRoutes(front);
  checkRequests(front, keys);
  translateLiteFailures(front, backend);
  guardAuth(front, backend);
  front.use("/storage/v1/*", async (c, next) => {
    await next();
    c.res = new Response(c.res.body, c.res);
    for (const [name, value] of Object.entries(storageSecurityHeaders)) c.res.headers.set(name, value);
  });
  front.post("/storage/v1/object/sign/*", async (c) => upstreamSignedUrls(await backend.api.fetch(clientRequest(c))));
  front.get("/storage/v1/object/sign/*", async (c) =>
    (await signedDownloadProblem(c, backend, keys.jwtSecret)) ?? backend.api.fetch(clientRequest(c)));
  const description = options.databaseUrl ? "PostgreSQL" : `PGlite (${options.dataDir ?? "in memory"})`;
  front.post("/_stack/backup", (c) => backupAnswer(c, backend, keys, description));
  serveCaughtMail(front, mail, keys);
  for (const prefix of apiPrefixes) {
    front.all(`${prefix}/*`, (c) => backend.api.fetch(clientRequest(c)));
  }
  front.all("/functions/v1/*", async (c) => {
    const incoming = new URL(c.req.url);
    const headers = clientHeaders(c);
    // Node's fetch would decode a compressed answer but keep its Content-Encoding header.
    headers.delete("accept-encoding");
    const hasBody = !["GET", "HEAD"].includes(c.req.method);
    const answer = await fetch(`${edge.origin}${incoming.pathname}${incoming.search}`, {
      method: c.req.method,
      headers,
      body: hasBody ? c.req.raw.body : undefined,
      ...(hasBody ? { duplex: "half" } : {}),
    } as RequestInit);
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  });

  // lite has no Realtime server: say so plainly, so a channel fails at once and the app
  // falls back to polling (instead of the app shell answering the WebSocket handshake).
  front.all("/realtime/v1/*", (c) => c.json({ message: "Realtime is not available on the local stack" }, 404));

  if (options.serveApp) {
    // APP_DIST_DIR lets parallel test runs serve their own builds.
    const distRoot = process.env.APP_DIST_DIR ?? `${projectRoot}dist`;
    if (!existsSync(`${distRoot}/index.html`)) throw new Error("dist/ is missing: run `npx vite build` first");
    front.use("*", async (c, next) => {
      await next();
      for (const [name, value] of Object.entries(securityHeaders)) c.res.headers.set(name, value);
    });
    // The app shell says this server has no Realtime (src/lib/realtime.ts reads it), so the
    // app polls from the start and never opens a WebSocket that can only fail. Files go out
    // precompressed, with their cache headers (static-files.ts).
    const shell = appShell(distRoot, (html) => html.replace("<head>", `<head>\n    ${realtimeUnavailableMeta}`));
    front.get("/", shell);
    front.get("/index.html", shell);
    front.use("*", staticFiles(distRoot));
    // Client-side routes: every other GET gets the app shell.
    front.get("*", shell);
  }

  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: front.fetch, port: options.port, hostname: host }, () => resolve(started));
  });
  // Idle keep-alive connections are closed by the client first. With Node's 5 s default, a
  // request on a connection idle that long could meet the server's close (ECONNRESET).
  if ("keepAliveTimeout" in server) {
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  }

  const jobs = await startScheduledJobs(backend.sql);
  const digests = startDigestCalls(edge.origin, keys.secretKey, Number(process.env.NOTIFICATION_DIGEST_INTERVAL_MS || 60_000));

  let stopped = false;
  return {
    url,
    keys,
    backend,
    mail,
    async stop() {
      if (stopped) return;
      stopped = true;
      await digests.stop();
      edge.child.kill("SIGTERM");
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Requests whose clients left are still being answered: they end before the database closes.
      await answering.settled(15_000);
      await jobs.stop();
      await mail.close();
      await backend.close();
    },
  };
}
