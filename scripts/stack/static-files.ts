/**
 * The built app as the local server sends it (`npm start`): each file precompressed at build
 * (scripts/precompress.ts: `<file>.br`, `<file>.gz`) is sent as brotli, else gzip, else as is,
 * by the request's Accept-Encoding, with `Vary: Accept-Encoding`. Hashed files under /assets/
 * never change under their name: cached for a year, immutable; everything else (the app shell,
 * index.html) is revalidated on every load (no-cache), so a new build is seen at once.
 */
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join, normalize, sep } from "node:path";
import { Readable } from "node:stream";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { Context, MiddlewareHandler } from "hono";
import { getMimeType } from "hono/utils/mime";
import { compressibleFile } from "../precompress.ts";

export const immutableCache = "public, max-age=31536000, immutable";
export const revalidateCache = "no-cache";

export type Encoding = "br" | "gzip";

/**
 * The encodings a request accepts (Accept-Encoding, with its q-values: `q=0` refuses one;
 * `*` stands for any not named), in the server's order of preference: brotli, then gzip.
 */
export function acceptedEncodings(header: string | undefined): Encoding[] {
  const weights = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  const accepts = (name: string) => (weights.get(name) ?? weights.get("*") ?? 0) > 0;
  return (["br", "gzip"] as const).filter(accepts);
}

const suffix: Record<Encoding, string> = { br: ".br", gzip: ".gz" };

function cacheControl(path: string): string {
  return path.startsWith("/assets/") ? immutableCache : revalidateCache;
}

function contentType(path: string): string {
  return getMimeType(path) ?? "application/octet-stream";
}

async function fileSize(file: string): Promise<number | null> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}

/**
 * Serves the files of `root` (GET and HEAD); a path that names no file goes on to the next
 * handler (the app shell). Paths that leave `root` are not served.
 */
export function staticFiles(root: string): MiddlewareHandler {
  const base = normalize(root.endsWith(sep) ? root : `${root}${sep}`);
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    let path: string;
    try {
      path = decodeURIComponent(c.req.path);
    } catch {
      return next();
    }
    if (path.endsWith("/") || path.includes("\0")) return next();
    const file = normalize(join(base, path));
    if (!file.startsWith(base) || /\.(br|gz)$/.test(file)) return next();
    const plainSize = await fileSize(file);
    if (plainSize === null) return next();

    const compressible = compressibleFile.test(file);
    let sent = file;
    let size = plainSize;
    let encoding: Encoding | null = null;
    if (compressible) {
      for (const candidate of acceptedEncodings(c.req.header("accept-encoding"))) {
        const candidateSize = await fileSize(file + suffix[candidate]);
        if (candidateSize !== null) {
          [sent, size, encoding] = [file + suffix[candidate], candidateSize, candidate];
          break;
        }
      }
    }
    const headers: Record<string, string> = {
      "Content-Type": contentType(file),
      "Content-Length": String(size),
      "Cache-Control": cacheControl(path),
    };
    if (compressible) headers.Vary = "Accept-Encoding";
    if (encoding) headers["Content-Encoding"] = encoding;
    if (c.req.method === "HEAD") return c.body(null, 200, headers);
    return c.body(Readable.toWeb(createReadStream(sent)) as ReadableStream, 200, headers);
  };
}

/**
 * The app shell (index.html, with `transform` applied once): for `/`, `/index.html` and every
 * client-side route; compressed like the files, never cached without revalidation. Read again
 * when the file changes (a new build under a running server).
 */
export function appShell(root: string, transform: (html: string) => string = (html) => html): (c: Context) => Promise<Response> {
  let cached: { mtimeMs: number; plain: Buffer; br: Buffer; gzip: Buffer } | null = null;
  return async (c) => {
    const file = join(root, "index.html");
    const { mtimeMs } = await stat(file);
    if (!cached || cached.mtimeMs !== mtimeMs) {
      const plain = Buffer.from(transform(await readFile(file, "utf8")));
      cached = { mtimeMs, plain, br: brotliCompressSync(plain), gzip: gzipSync(plain, { level: 9 }) };
    }
    const encoding = acceptedEncodings(c.req.header("accept-encoding"))[0];
    const body = encoding ? cached[encoding] : cached.plain;
    const headers: Record<string, string> = {
      "Content-Type": "text/html; charset=UTF-8",
      "Content-Length": String(body.length),
      "Cache-Control": revalidateCache,
      Vary: "Accept-Encoding",
    };
    if (encoding) headers["Content-Encoding"] = encoding;
    if (c.req.method === "HEAD") return c.body(null, 200, headers);
    return c.body(new Uint8Array(body), 200, headers);
  };
}
