/**
 * A private PostgreSQL 15 cluster for `npm run faults`: initdb into a temporary folder, on a
 * free port of 127.0.0.1 with trust authentication, so that it can be stopped and started
 * while the product runs on it (the machine's shared PostgreSQL on 5432 is never touched).
 * initdb and postgres refuse to run as root: as root they run as the postgres user, which
 * then owns the folder.
 */
import { execFile } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { freePort } from "../stack/free-port.ts";

const run = promisify(execFile);
const binaries = process.env.POSTGRES_BIN_DIR ?? "/usr/lib/postgresql/15/bin";

export interface Cluster {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  start(): Promise<void>;
  /** `pg_ctl stop`; mode immediate: every backend ends at once, as in a crash (recovery at the next start). */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** Stops it (if running) and removes its folder. */
  remove(): Promise<void>;
}

/** Runs one of PostgreSQL's programs, as the postgres user when this process is root. */
async function postgresCommand(program: string, args: string[]): Promise<string> {
  const [file, argv] = process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", `${binaries}/${program}`, ...args]] : [`${binaries}/${program}`, args];
  try {
    const { stdout } = await run(file, argv, { timeout: 120_000 });
    return stdout;
  } catch (error) {
    const failed = error as Error & { stderr?: string };
    throw new Error(`${program} ${args.join(" ")} failed: ${failed.stderr || failed.message}`, { cause: error });
  }
}

export async function createCluster(): Promise<Cluster> {
  const folder = mkdtempSync(`${tmpdir()}/crm-faults-cluster-`);
  const dataDir = `${folder}/data`;
  if (process.getuid?.() === 0) {
    const { uid, gid } = await postgresIds();
    chownSync(folder, uid, gid);
  }
  const port = await freePort();
  let running = false;
  const cluster: Cluster = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      await postgresCommand("pg_ctl", [
        "start", "--wait", "--timeout=60", "-D", dataDir, "-l", `${folder}/postgres.log`,
        "-o", `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${folder}`,
      ]);
      running = true;
    },
    async stop(mode = "fast") {
      await postgresCommand("pg_ctl", ["stop", "--wait", "--timeout=60", "-D", dataDir, "-m", mode]);
      running = false;
    },
    async remove() {
      if (running) await cluster.stop("immediate").catch(() => undefined);
      rmSync(folder, { recursive: true, force: true });
    },
  };
  try {
    await postgresCommand("initdb", ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
    await cluster.start();
  } catch (error) {
    await cluster.remove();
    throw error;
  }
  return cluster;
}

/** The postgres user's uid and gid. */
async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
