/** One local stack (in-memory PGlite, demo seed) shared by the integration test files. */
import type { TestProject } from "vitest/node";
import { freePort, startStack, type RunningStack } from "../../scripts/stack/server.ts";

let stack: RunningStack | undefined;

export async function setup(project: TestProject) {
  stack = await startStack({ port: await freePort(), seed: true });
  project.provide("stackUrl", stack.url);
}

export async function teardown() {
  await stack?.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    stackUrl: string;
  }
}
