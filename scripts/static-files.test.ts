import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { precompress } from "./precompress.ts";
import { acceptedEncodings, appShell, immutableCache, staticFiles } from "./stack/static-files.ts";

// The built app as `npm start` serves it: a dist/ folder precompressed at build, served by
// the request's Accept-Encoding (scripts/stack/static-files.ts).
let root: string;
const app = new Hono();
const script = `export const greeting = ${JSON.stringify("merhaba dünya ".repeat(200))};\n`;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "static-files-"));
  await mkdir(join(root, "assets"));
  await writeFile(join(root, "assets", "index-AbC123.js"), script);
  await writeFile(join(root, "assets", "tiny-AbC123.js"), "export {};\n");
  await writeFile(join(root, "index.html"), `<!doctype html><html><head><title>x</title></head><body>${"<p>uygulama</p>".repeat(100)}</body></html>`);
  await precompress(root);
  app.get("/", appShell(root, (html) => html.replace("<head>", "<head><meta name=x>")));
  app.use("*", staticFiles(root));
  app.get("*", appShell(root));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const get = (path: string, acceptEncoding?: string) => app.request(path, { headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding } });

describe("static files", () => {
  test("a hashed asset comes as brotli, gzip or plain by Accept-Encoding, cached for good", async () => {
    const br = await get("/assets/index-AbC123.js", "gzip, deflate, br, zstd");
    expect(br.status).toBe(200);
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(br.headers.get("vary")).toBe("Accept-Encoding");
    expect(br.headers.get("cache-control")).toBe(immutableCache);
    const brBody = Buffer.from(await br.arrayBuffer());
    expect(Number(br.headers.get("content-length"))).toBe(brBody.length);
    expect(brBody.length).toBeLessThan(script.length / 5);
    expect(brotliDecompressSync(brBody).toString()).toBe(script);

    const gz = await get("/assets/index-AbC123.js", "gzip, deflate");
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("vary")).toBe("Accept-Encoding");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(script);

    for (const none of [undefined, "identity", "br;q=0, gzip;q=0"]) {
      const plain = await get("/assets/index-AbC123.js", none);
      expect(plain.headers.get("content-encoding")).toBeNull();
      expect(plain.headers.get("vary")).toBe("Accept-Encoding");
      expect(plain.headers.get("content-type")).toMatch(/^text\/javascript/);
      expect(await plain.text()).toBe(script);
    }
  });

  test("a file too small to be worth compressing comes plain; a missing one falls to the app shell", async () => {
    const tiny = await get("/assets/tiny-AbC123.js", "br");
    expect(tiny.headers.get("content-encoding")).toBeNull();
    expect(await tiny.text()).toBe("export {};\n");
    const route = await get("/customers/1", "br");
    expect(route.headers.get("content-type")).toMatch(/^text\/html/);
    expect(route.headers.get("cache-control")).toBe("no-cache");
  });

  test("the app shell is compressed too, never cached without revalidation", async () => {
    const shell = await get("/", "gzip");
    expect(shell.headers.get("content-encoding")).toBe("gzip");
    expect(shell.headers.get("cache-control")).toBe("no-cache");
    expect(shell.headers.get("vary")).toBe("Accept-Encoding");
    expect(gunzipSync(Buffer.from(await shell.arrayBuffer())).toString()).toContain("<head><meta name=x>");
    const direct = await get("/index.html", "br");
    expect(direct.headers.get("cache-control")).toBe("no-cache");
  });

  test("paths outside the folder and the compressed copies themselves are not served", async () => {
    for (const path of ["/%2e%2e/%2e%2e/etc/passwd", "/assets/index-AbC123.js.br", "/assets/index-AbC123.js.gz"]) {
      const answer = await get(path, "br");
      expect(answer.headers.get("content-type")).toMatch(/^text\/html/);
    }
  });

  test("Accept-Encoding is read with its q-values", () => {
    expect(acceptedEncodings("gzip, deflate, br")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("gzip;q=1.0, br;q=0")).toEqual(["gzip"]);
    expect(acceptedEncodings("*")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("*;q=0, gzip")).toEqual(["gzip"]);
    expect(acceptedEncodings("")).toEqual([]);
    expect(acceptedEncodings(undefined)).toEqual([]);
  });
});
