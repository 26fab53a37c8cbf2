/** One local stack (in-memory PGlite, demo seed) shared by the integration test files. */
import type { TestProject } from "vitest/node";
import { freePort } from "../../scripts/stack/free-port.ts";
import { startStack, type RunningStack } from "../../scripts/stack/server.ts";
import { testKeys } from "../support/keys.ts";

let stack: RunningStack | undefined;

export async function setup(project: TestProject) {
  // A dead mail server is given up on after 2 s here (10 s by default), so that its test is short.
  process.env.MAIL_TIMEOUT_MS = "2000";
  stack = await startStack({ port: await freePort(), seed: true, keys: testKeys });
  // Every test client comes from one address (127.0.0.1), so the per-address sign-in
  // throttle would count the whole suite's wrong passwords together, and the suite signs
  // the demo accounts in far more often than a person (the per-account rate of right
  // passwords). The throttles' own tests (lockout-paths, sign-in-second-pass) run stacks of
  // their own with the real settings.
  await stack.backend.sql.query("update private.security_settings set client_failure_limit = 100000, account_success_limit = 100000");
  project.provide("stackUrl", stack.url);
  project.provide("mailPort", stack.mail.port);
}

export async function teardown() {
  await stack?.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    stackUrl: string;
    /** The stack's own mail server (SMTP on 127.0.0.1): the installation's mail, where organizations without settings send. */
    mailPort: number;
  }
}
