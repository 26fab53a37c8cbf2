/**
 * The tests' own fixed keys: every stack a test starts, the e2e run's product, and the
 * stacks of `npm run bench`, `fuzz`, `load` and `faults` are given these explicitly, and
 * their clients use them. They are published (this file is public), so they are in
 * scripts/stack/env.ts's one list of published keys: `npm start` never listens beyond this
 * machine with them and the backup endpoint refuses to work on them. The product itself
 * runs on its installation's own keys (scripts/stack/env.ts, installationKeys).
 */
import { keyEnvironment, publishedKeySets, type LocalKeys } from "../../scripts/stack/env.ts";

export const testKeys: LocalKeys = publishedKeySets.tests;

/** The test keys as the environment of a product process (`scripts/start.ts`, `vite build`). */
export const testKeyEnvironment: Record<string, string> = keyEnvironment(testKeys);
