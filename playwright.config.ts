import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./scripts/chromium.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testKeyEnvironment } from "./tests/support/keys.ts";

const port = Number(process.env.E2E_PORT ?? 54329);
const baseURL = `http://127.0.0.1:${port}`;

// Every run starts from an empty database. Workers load this file again but inherit the
// runner's environment, so only the runner creates the directory, and only it removes it,
// on exit, once the web server has been stopped.
if (!process.env.E2E_DATA_DIR) {
  const dataDir = mkdtempSync(join(tmpdir(), "crm-e2e-"));
  process.env.E2E_DATA_DIR = dataDir;
  process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));
}

export default defineConfig({
  testDir: "e2e",
  workers: 1,
  retries: 0,
  // A journey signs in (bcrypt) and lands on the dashboard (its queries and charts) before it
  // starts; on a 2-core machine shared with the other layers that alone can take seconds.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: "list",
  use: {
    baseURL,
    // A failed journey keeps its trace with the page's DOM at every step; the screencast is left
    // out (it took about a fifth of the journeys' time on two cores, measured on 9 journeys).
    trace: { mode: "retain-on-failure", screenshots: false },
    // As a person who asked their system for less motion: the app then skips Mantine's
    // transitions (respectReducedMotion), and no action waits for one to end.
    reducedMotion: "reduce",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: chromiumLaunchOptions,
      },
    },
  ],
  webServer: {
    // Serves the built dist/ (the test orchestrator runs `vite build --mode test-keys` first) and
    // the API on one origin, on the tests' keys (tests/support/keys.ts), given explicitly.
    command: "node --import tsx scripts/start.ts",
    // SMTP_PORT 0: the stack's mail server on any free port, so that runs side by side never meet there.
    env: { PORT: String(port), SMTP_PORT: "0", HOST: "127.0.0.1", LOCAL_DATA_DIR: process.env.E2E_DATA_DIR ?? "", ...testKeyEnvironment },
    url: `${baseURL}/login`,
    timeout: 120_000,
    reuseExistingServer: false,
    // Lets the stack stop its database and edge runtime cleanly.
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});
