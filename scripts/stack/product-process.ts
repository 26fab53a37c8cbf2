/**
 * The product as `npm start` runs it (scripts/start.ts), in a process group of its own, for
 * the scripts that drive it from outside (`npm run load`, `npm run faults`): a free port of
 * 127.0.0.1, the data folder or DATABASE_URL and Storage folder given, ready once it prints
 * its "is running at" line, on the keys given (the scripts give the tests' keys,
 * tests/support/keys.ts, and talk to it with them). It needs a dist/ built with that
 * publishable key (the npm scripts run `vite build --mode test-keys` first).
 *
 *   const product = await startProduct({ port, dataDir, storageDir });
 *   …
 *   await product.stop();        SIGTERM: the stack stops its pools and the edge runtime
 *   await product.kill();        SIGKILL to the whole group (the stack and its Deno child)
 */
import { spawn } from "node:child_process";
import { keyEnvironment, projectRoot, type LocalKeys } from "./env.ts";

export interface ProductOptions {
  port: number;
  /** The keys it runs on (given to it in its environment, over any .env or key file). */
  keys: LocalKeys;
  storageDir: string;
  /** PGlite's data folder (LOCAL_DATA_DIR); ignored with databaseUrl. */
  dataDir?: string;
  /** A PostgreSQL database (DATABASE_URL) instead of PGlite. */
  databaseUrl?: string;
  /**
   * Keep the product's stderr (lite logs refused statements with their stacks) and show it
   * only when the start fails; by default it goes to this process's stderr.
   */
  quiet?: boolean;
  /** How long a start may take (default 120 s). */
  readyTimeoutMs?: number;
}

export interface ProductProcess {
  url: string;
  /** The keys it runs on. */
  keys: LocalKeys;
  pid: number;
  /** The product's stderr so far (its last 20,000 characters), when quiet. */
  stderr(): string;
  /** Whether the process has ended. */
  exited(): boolean;
  /** SIGTERM, as Ctrl-C would; the whole group is killed after 15 s if it has not ended. */
  stop(): Promise<void>;
  /** kill -9 of the whole process group (the stack and its edge runtime), waiting for its end. */
  kill(): Promise<void>;
}

/** Sends a signal to a whole process group; false when there is none any more. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Groups started here and not yet stopped: killed if this process ends or is interrupted first. */
const liveGroups = new Set<number>();
let hooked = false;

/**
 * A detached group gets no Ctrl-C from the terminal and outlives this process: when this
 * process exits or is interrupted, the groups still running are killed. A script with its
 * own handler for the signal (its cleanup) exits itself; otherwise the signal is raised
 * again with its default action.
 */
function killGroupsOnExit() {
  if (hooked) return;
  hooked = true;
  const killAll = () => {
    for (const pid of liveGroups) signalGroup(pid, "SIGKILL");
    liveGroups.clear();
  };
  process.on("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const onSignal = () => {
      killAll();
      if (process.listenerCount(signal) === 1) {
        process.off(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

/** Waits until no process of the group is left (a group outlives its leader while Deno runs). */
async function groupGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!signalGroup(pid, 0)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !signalGroup(pid, 0);
}

export async function startProduct(options: ProductOptions): Promise<ProductProcess> {
  killGroupsOnExit();
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: projectRoot,
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: "127.0.0.1",
      ...keyEnvironment(options.keys),
      LOCAL_STORAGE_DIR: options.storageDir,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : { LOCAL_DATA_DIR: options.dataDir }),
    },
    stdio: ["ignore", "pipe", options.quiet ? "pipe" : "inherit"],
    // Its own group, so that one signal reaches the stack and its Deno child.
    detached: true,
  });
  const pid = child.pid!;
  liveGroups.add(pid);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const ended = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    }
    // Whatever of the group is left (an edge runtime whose parent was killed) goes too.
    signalGroup(pid, "SIGKILL");
    await groupGone(pid, 5_000);
    liveGroups.delete(pid);
  };
  const product: ProductProcess = {
    url: `http://127.0.0.1:${options.port}`,
    keys: options.keys,
    pid,
    stderr: () => stderr,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    stop,
    async kill() {
      signalGroup(pid, "SIGKILL");
      await ended;
      await groupGone(pid, 5_000);
      liveGroups.delete(pid);
    },
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start was not ready within ${(options.readyTimeoutMs ?? 120_000) / 1000} s`)),
        options.readyTimeoutMs ?? 120_000);
      child.stdout!.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("is running at")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`npm start ended (${code ?? signal}) before it was ready${stderr ? `:\n${stderr.slice(-2_000)}` : ""}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return product;
}
