/**
 * What the built app (dist/) was built from, as one hash: the app's sources (src/, index.html,
 * public/ if any), the build's configuration and tooling (vite.config.ts, tsconfig.json, the
 * plugins it loads), the exact dependencies (package-lock.json), and what `vite build` bakes in
 * from the environment (the publishable key, the Supabase URL). `npm start` rebuilds only when
 * it differs from the stamp the last build left in dist/ (scripts/build-app.ts).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export const stampFileName = ".build-stamp";

/** The inputs, relative to the project root: folders are read recursively. */
export const buildInputs = [
  "src",
  "public",
  "index.html",
  "vite.config.ts",
  "tsconfig.json",
  "package-lock.json",
  "scripts/precompress.ts",
  "scripts/import-cycles.ts",
  "scripts/stack/env.ts",
];

function filesOf(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => filesOf(join(path, entry.name)));
}

/**
 * The hash of `inputs` under `root` (each file's path and content) and of `baked` (the values
 * the build takes from the environment); a unit test (app-build-stamp.test.ts) checks it
 * changes with any of them.
 */
export function buildHash(root: string, baked: Record<string, string | undefined>, inputs: string[] = buildInputs): string {
  const hash = createHash("sha256");
  for (const file of inputs.flatMap((input) => filesOf(join(root, input)))) {
    hash.update(`${relative(root, file)}\0`);
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  hash.update(JSON.stringify(Object.entries(baked).sort()));
  return hash.digest("hex");
}

/** Whether `distRoot` holds a complete build stamped with `hash`. */
export function builtFrom(distRoot: string, hash: string): boolean {
  const stamp = join(distRoot, stampFileName);
  return existsSync(join(distRoot, "index.html")) && existsSync(stamp) && readFileSync(stamp, "utf8").trim() === hash;
}
