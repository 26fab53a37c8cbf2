/**
 * `npm start` on a machine where it cannot work (issue 15, faults): the data folder not
 * writable, the disk too full, the embedded database already open in another running
 * product; or where it must not (issue 23): listening beyond this machine on published
 * keys. It says why and stops before it opens or writes anything.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateKeys, keyEnvironment, projectRoot, publishedKeySets } from "../../scripts/stack/env.ts";
import { testKeyEnvironment } from "../support/keys.ts";

const scratch = mkdtempSync(join(tmpdir(), "crm-start-checks-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** scripts/start.ts on the tests' keys (given explicitly: no key file is made), this machine only, unless told otherwise. */
function start(env: Record<string, string>) {
  return spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: projectRoot,
    env: { ...process.env, PORT: "1", HOST: "127.0.0.1", DATABASE_URL: "", ...testKeyEnvironment, ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("npm start where it cannot work", () => {
  it("refuses a data folder that cannot be written, and writes nothing", () => {
    const file = join(scratch, "not-a-folder");
    writeFileSync(file, "");
    const storage = join(scratch, "storage-1");
    const run = start({ LOCAL_DATA_DIR: join(file, "pglite"), LOCAL_STORAGE_DIR: storage });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`Satış CRM cannot start: the folder ${join(file, "pglite")} cannot be written (ENOTDIR)`);
    expect(existsSync(storage)).toBe(false);
  });

  it("refuses a disk with less free space than it needs, leaving the data folder empty", () => {
    const data = join(scratch, "pglite-2");
    const run = start({ LOCAL_DATA_DIR: data, LOCAL_STORAGE_DIR: join(scratch, "storage-2"), START_MIN_FREE_MB: String(2 ** 40) });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/Satış CRM cannot start: the disk of .*pglite-2 has \d+ MB free; at least 1099511627776 MB are needed/);
    expect(readdirSync(data)).toEqual([]);
  });

  it("refuses an embedded database another running product has open, and ignores the note of one that died", async () => {
    const data = join(scratch, "pglite-3");
    // A live process started from scripts/start.ts (as /proc tells), standing in for the product.
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)", "scripts/start.ts"], { stdio: "ignore" });
    try {
      writeFileSync(`${data}.running.json`, JSON.stringify({ pid: other.pid, url: "http://127.0.0.1:9" }));
      const run = start({ LOCAL_DATA_DIR: data, LOCAL_STORAGE_DIR: join(scratch, "storage-3") });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`its database in ${data} is in use by the product running at http://127.0.0.1:9 (process ${other.pid})`);
      expect(existsSync(data)).toBe(false);
    } finally {
      other.kill("SIGKILL");
      await new Promise((resolve) => other.once("exit", resolve));
    }
    // The same note once that process is gone (kill -9): the start goes on to its next check.
    const run = start({ LOCAL_DATA_DIR: data, LOCAL_STORAGE_DIR: join(scratch, "storage-3"), START_MIN_FREE_MB: String(2 ** 40) });
    expect(run.stderr).toContain("Satış CRM cannot start: the disk of");
  });

  it("refuses a built app that lacks its publishable key (built with other keys), before the database is opened", () => {
    const build = join(scratch, "other-build");
    mkdirSync(join(build, "assets"), { recursive: true });
    writeFileSync(join(build, "index.html"), "<!doctype html>");
    writeFileSync(join(build, "assets", "index.js"), `const key = "sb_publishable_another_build";`);
    const data = join(scratch, "pglite-other-build");
    const run = start({ APP_DIST_DIR: build, LOCAL_DATA_DIR: data, LOCAL_STORAGE_DIR: join(scratch, "storage-other-build") });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`Satış CRM cannot start: the built app in ${build} was built with other keys than this product's`);
    expect(run.stderr).toContain("Run `npm start` (it builds the app first)");
    expect(run.stdout).not.toContain("is running at");
  });

  describe("published keys beyond this machine", () => {
    const refusal = (host: string, variables: string) =>
      `Satış CRM cannot start: it would listen on ${host}, where other machines reach it, with published keys: ${variables} are values printed in public, with which anyone can sign in as any user or take a full backup`;

    it.each([
      ["0.0.0.0", "the old .env.example's keys", keyEnvironment(publishedKeySets.oldExample)],
      ["0.0.0.0", "the tests' keys", testKeyEnvironment],
      ["::", "the tests' keys", testKeyEnvironment],
      ["192.168.1.20", "the old .env.example's keys", keyEnvironment(publishedKeySets.oldExample)],
    ])("HOST=%s with %s: refused, exit 1, nothing opened", (host, _name, keys) => {
      const data = join(scratch, `published-${host.replace(/[^\w]/g, "_")}`);
      const run = start({ HOST: host, LOCAL_DATA_DIR: data, LOCAL_STORAGE_DIR: `${data}-storage`, ...keys });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(refusal(host, "SUPABASE_JWT_SECRET and SUPABASE_SECRET_KEY"));
      expect(run.stderr).toContain("Remove SUPABASE_JWT_SECRET, SUPABASE_SECRET_KEY and SUPABASE_PUBLISHABLE_KEY from .env and the environment");
      expect(run.stderr).toContain("or listen on this machine only (HOST=127.0.0.1, the default). Nothing was opened.");
      expect(run.stdout).not.toContain("is running at");
      expect(existsSync(data)).toBe(false);
      expect(existsSync(`${data}-storage`)).toBe(false);
    });

    it("refuses one published secret among keys of one's own, and names it", () => {
      const data = join(scratch, "published-one");
      const own = keyEnvironment(generateKeys());
      const run = start({ HOST: "0.0.0.0", LOCAL_DATA_DIR: data, LOCAL_STORAGE_DIR: `${data}-storage`, ...own, SUPABASE_JWT_SECRET: publishedKeySets.oldExample.jwtSecret });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("with published keys: SUPABASE_JWT_SECRET is a value printed in public");
      expect(existsSync(data)).toBe(false);
    });

    it.each([["127.0.0.1"], ["::1"], ["localhost"]])("HOST=%s (this machine) with published keys goes on to its next check", (host) => {
      const data = join(scratch, `loopback-${host.replace(/[^\w]/g, "_")}`);
      const run = start({ HOST: host, LOCAL_DATA_DIR: data, LOCAL_STORAGE_DIR: `${data}-storage`, START_MIN_FREE_MB: String(2 ** 40) });
      expect(run.stderr).not.toContain("published keys");
      expect(run.stderr).toContain("Satış CRM cannot start: the disk of");
    });

    it("HOST=0.0.0.0 with keys of its own goes on to its next check", () => {
      const data = join(scratch, "own-keys");
      const run = start({ HOST: "0.0.0.0", LOCAL_DATA_DIR: data, LOCAL_STORAGE_DIR: `${data}-storage`, START_MIN_FREE_MB: String(2 ** 40), ...keyEnvironment(generateKeys()) });
      expect(run.stderr).not.toContain("published keys");
      expect(run.stderr).toContain("Satış CRM cannot start: the disk of");
    });
  });
});
