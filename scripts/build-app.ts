/**
 * The first step of `npm start`: builds the app (`vite build`) unless dist/ was built from the
 * same sources, configuration, dependencies and keys (app-build-stamp.ts), which saves the
 * build's half a minute on every start of an unchanged clone. FORCE_BUILD=1 always builds.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildHash, builtFrom, stampFileName } from "./app-build-stamp.ts";
import { installationKeys, projectRoot } from "./stack/env.ts";

const distRoot = join(projectRoot, "dist");
// What vite.config.ts bakes into the bundle (its publishableKey(), for the default mode).
const baked = {
  publishableKey: process.env.VITE_SUPABASE_PUBLISHABLE_KEY || installationKeys().publishableKey,
  url: process.env.VITE_SUPABASE_URL,
};
const hash = buildHash(projectRoot, baked);

if (!process.env.FORCE_BUILD && builtFrom(distRoot, hash)) {
  console.log("  The app in dist/ is up to date: not rebuilt (FORCE_BUILD=1 rebuilds it).");
} else {
  const build = spawnSync(join(projectRoot, "node_modules/.bin/vite"), ["build"], { cwd: projectRoot, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(join(distRoot, stampFileName), `${hash}\n`);
}
