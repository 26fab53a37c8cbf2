/**
 * Local stand-in for Supabase's edge runtime (Deno). Serves every folder of
 * supabase/functions under /functions/v1/<name>, the way the hosted gateway does:
 * the prefix is stripped, `verify_jwt` (default on, per function in supabase/config.toml)
 * is checked before the function runs, and each function's own `Deno.serve` handler
 * answers. Glue only: function code runs unchanged.
 */
import { parse as parseToml } from "npm:smol-toml@1";

type Handler = (request: Request) => Response | Promise<Response>;

const functionsRoot = new URL("../../supabase/functions/", import.meta.url);
const port = Number(Deno.env.get("EDGE_RUNTIME_PORT"));
// Hosted functions never see the JWT secret: read it, then remove it from the environment.
const jwtSecret = Deno.env.get("EDGE_RUNTIME_JWT_SECRET") ?? "";
Deno.env.delete("EDGE_RUNTIME_JWT_SECRET");
// Like the hosted gateway, verify_jwt lets the project's own API keys through; the
// function itself must then authenticate the caller.
const apiKeys = new Set([Deno.env.get("SUPABASE_PUBLISHABLE_KEY"), Deno.env.get("SUPABASE_SECRET_KEY")]);
Deno.env.delete("EDGE_RUNTIME_PORT");

const config = parseToml(
  await Deno.readTextFile(new URL("../config.toml", functionsRoot)),
) as { functions?: Record<string, { verify_jwt?: boolean }> };

const handlers = new Map<string, Promise<Handler>>();

/** Imports a function once, capturing the handler it passes to Deno.serve. */
function loadHandler(name: string): Promise<Handler> {
  let loading = handlers.get(name);
  if (!loading) {
    loading = (async () => {
      let captured: Handler | undefined;
      const realServe = Deno.serve;
      // deno-lint-ignore no-explicit-any
      (Deno as any).serve = (...args: any[]) => {
        const last = args[args.length - 1];
        captured = typeof last === "function" ? last : last.handler;
        return { finished: Promise.resolve(), shutdown: () => Promise.resolve(), addr: {} };
      };
      try {
        await import(new URL(`${name}/index.ts`, functionsRoot).href);
      } finally {
        // deno-lint-ignore no-explicit-any
        (Deno as any).serve = realServe;
      }
      if (!captured) throw new Error(`Function ${name} did not call Deno.serve`);
      return captured;
    })();
    handlers.set(name, loading);
    loading.catch(() => handlers.delete(name));
  }
  return loading;
}

function errorResponse(status: number, code: string, message: string): Response {
  return Response.json({ code, message }, { status, headers: { "sb-error-code": code } });
}

async function functionExists(name: string): Promise<boolean> {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(name)) return false;
  try {
    return (await Deno.stat(new URL(`${name}/index.ts`, functionsRoot))).isFile;
  } catch {
    return false;
  }
}

function base64UrlDecode(part: string): Uint8Array<ArrayBuffer> {
  const base64 = part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** verify_jwt: an HS256 token signed with the project's JWT secret, not expired. */
async function isValidJwt(token: string): Promise<boolean> {
  const parts = token.split(".");
  if (parts.length !== 3) return false;
  try {
    const header = JSON.parse(new TextDecoder().decode(base64UrlDecode(parts[0])));
    if (header.alg !== "HS256") return false;
    const key = await crypto.subtle.importKey(
      "raw", new TextEncoder().encode(jwtSecret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"],
    );
    const signed = new TextEncoder().encode(`${parts[0]}.${parts[1]}`);
    if (!(await crypto.subtle.verify("HMAC", key, base64UrlDecode(parts[2]), signed))) return false;
    const claims = JSON.parse(new TextDecoder().decode(base64UrlDecode(parts[1])));
    return typeof claims.exp === "number" && claims.exp * 1000 > Date.now();
  } catch {
    return false;
  }
}

// Every function is imported before the runtime answers (the stack waits for that): a
// function's first request then costs what its later ones do, as on a warm hosted worker,
// instead of a module graph's compile time on a machine that may be busy. A function that
// fails to import is reported here and again, with a 500, on each request (loadHandler retries).
for (const entry of Deno.readDirSync(functionsRoot)) {
  if (!entry.isDirectory || !(await functionExists(entry.name))) continue;
  await loadHandler(entry.name).catch((error) => console.error(`[functions] ${entry.name} did not load:`, error));
}

Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, async (request) => {
  const url = new URL(request.url);
  const match = /^\/functions\/v1\/([^/]+)(\/.*)?$/.exec(url.pathname);
  const name = match?.[1] ?? "";
  if (!(await functionExists(name))) return errorResponse(404, "NOT_FOUND", "Function not found");

  if (request.method !== "OPTIONS" && config.functions?.[name]?.verify_jwt !== false) {
    const token = /^Bearer (.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    if (!token) return errorResponse(401, "UNAUTHORIZED_NO_AUTH_HEADER", "Missing authorization header");
    if (!apiKeys.has(token) && !(await isValidJwt(token))) return errorResponse(401, "UNAUTHORIZED_INVALID_JWT", "Invalid JWT");
  }

  url.pathname = `/${name}${match?.[2] ?? ""}`;
  try {
    const handler = await loadHandler(name);
    return await handler(new Request(url, request));
  } catch (error) {
    console.error(`[functions] ${name}:`, error);
    return errorResponse(500, "WORKER_ERROR", "Function failed to respond");
  }
});
