/**
 * `npm start` on a machine where it cannot work (issue 15, faults): the data folder not
 * writable, the disk too full. It says why and stops before it opens or writes anything.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../scripts/stack/env.ts";

const scratch = mkdtempSync(join(tmpdir(), "crm-start-checks-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function start(env: Record<string, string>) {
  return spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: projectRoot,
    env: { ...process.env, PORT: "1", DATABASE_URL: "", ...env },
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
});
