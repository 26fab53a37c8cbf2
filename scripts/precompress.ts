/**
 * Brotli and gzip copies of the built app's text files, made once at build time (`vite build`
 * runs it as a plugin) so that the local server sends them compressed without compressing per
 * request (scripts/stack/static-files.ts picks one by the request's Accept-Encoding).
 */
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The files worth compressing: text. Images and fonts are compressed already. */
export const compressibleFile = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest|xml)$/;

/** Smaller than this, a compressed copy saves less than its headers cost. */
const minimumBytes = 512;

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? filesUnder(join(folder, entry.name)) : Promise.resolve([join(folder, entry.name)]))),
  );
  return nested.flat();
}

/** Writes `<file>.br` and `<file>.gz` beside every compressible file of `folder` (recursively). */
export async function precompress(folder: string): Promise<{ files: number; bytes: number; brotliBytes: number; gzipBytes: number }> {
  const files = (await filesUnder(folder)).filter((file) => compressibleFile.test(file));
  const totals = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  await Promise.all(
    files.map(async (file) => {
      if ((await stat(file)).size < minimumBytes) return;
      const content = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            // The highest quality on all but the largest files (pdfmake's 1 MB chunk), where it costs seconds.
            [constants.BROTLI_PARAM_QUALITY]: content.length > 400_000 ? 9 : 11,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipAsync(content, { level: 9 }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
      totals.files++;
      totals.bytes += content.length;
      totals.brotliBytes += br.length;
      totals.gzipBytes += gz.length;
    }),
  );
  return totals;
}

/** The Vite plugin: precompresses the output folder once the bundle is written. */
export function precompressPlugin(): Plugin {
  let outDir = "dist";
  return {
    name: "satis-crm:precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir.startsWith("/") ? config.build.outDir : join(config.root, config.build.outDir);
    },
    async closeBundle() {
      const { files, bytes, brotliBytes, gzipBytes } = await precompress(outDir);
      const kB = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
      this.info(`precompressed ${files} files: ${kB(bytes)} → brotli ${kB(brotliBytes)}, gzip ${kB(gzipBytes)}`);
    },
  };
}
