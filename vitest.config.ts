import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The app's `@/` alias, for tests that read app modules (the module registry).
const alias = { "@": fileURLToPath(new URL("./src", import.meta.url)) };

// Three projects: `npm test` runs unit + integration in one layer and postgres (which
// needs the machine's PostgreSQL) in the database layer.
export default defineConfig({
  test: {
    projects: [
      // The unit project is defined with the app, in vite.config.ts.
      { extends: "./vite.config.ts" },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/integration/global-setup.ts"],
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "postgres",
          include: ["tests/postgres/**/*.test.ts"],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
