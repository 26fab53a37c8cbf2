import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { noImportCycles } from "./scripts/import-cycles.ts";
import { precompressPlugin } from "./scripts/precompress.ts";
import { installationKeys, projectRoot, publishedKeySets } from "./scripts/stack/env.ts";

/**
 * Only the publishable key may reach the bundle: it is public by design. The secret key and
 * the JWT secret stay on the server side of the local stack. Which publishable key:
 * VITE_SUPABASE_PUBLISHABLE_KEY (a hosted project's); else, for `vite build --mode
 * test-keys` (the e2e run, bench, load, faults) and the unit tests, the tests' fixed key;
 * else this installation's own (env.ts: made by the first build of a fresh clone, which
 * `npm start` runs before it starts the server, and kept for every later start).
 */
function publishableKey(mode: string): string {
  if (process.env.VITE_SUPABASE_PUBLISHABLE_KEY) return process.env.VITE_SUPABASE_PUBLISHABLE_KEY;
  return mode === "test-keys" || mode === "test" ? publishedKeySets.tests.publishableKey : installationKeys().publishableKey;
}

export default defineConfig(({ mode }) => ({
  // `vite build` (and so `npm start`) fails on an import cycle under src/, naming its files.
  // The output is precompressed (brotli, gzip) for the local server (scripts/precompress.ts).
  plugins: [react(), noImportCycles(projectRoot, "src"), precompressPlugin()],
  // `@/…` is src/, as tsconfig.json's paths say.
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  define: {
    "import.meta.env.VITE_SUPABASE_PUBLISHABLE_KEY": JSON.stringify(publishableKey(mode)),
  },
  build: {
    outDir: "dist",
    rolldownOptions: {
      output: {
        // Large libraries get chunks of their own: each stays under the 500 kB chunk budget and
        // stays cached across releases of the app code. Mantine is left to the per-route
        // splitting, so /login loads only the components it uses; icons come as one chunk
        // instead of one file each (the signed-in routes need it: the module registry names
        // each module's icon).
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/ },
            // Auth's error classes and checks are the login's (the sign-in maps Auth's errors to
            // messages); Auth itself loads when the login form is used or a session is restored
            // (src/lib/auth-client.ts); the rest of supabase-js comes after sign-in.
            { name: "supabase-auth-errors", test: /node_modules[\\/]@supabase[\\/]auth-js[\\/]dist[\\/]module[\\/]lib[\\/]errors\.js$/, priority: 2 },
            { name: "supabase-auth", test: /node_modules[\\/]@supabase[\\/]auth-js[\\/]/, priority: 1 },
            { name: "supabase", test: /node_modules[\\/]@supabase[\\/]/ },
            { name: "icons", test: /node_modules[\\/]@tabler[\\/]icons-react[\\/]/ },
          ],
        },
      },
    },
  },
  test: {
    // Unit tests only (`vitest --project unit`): the app's, and the build tooling's in scripts/ (the
    // import-cycle check); the integration tests under tests/ have their own config.
    name: "unit",
    include: ["src/**/*.test.{ts,tsx}", "scripts/*.test.ts"],
    environment: "node",
  },
}));
