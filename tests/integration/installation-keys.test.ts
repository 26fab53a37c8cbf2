/**
 * An installation's own keys (issue 23, item 2). A fresh clone has no `.env` and no key
 * file: `npm start` (`vite build`, then scripts/start.ts) makes random keys on the first
 * call that needs them, keeps them in a file of mode 600 and reuses them; the bundle gets
 * the publishable key only. What `.env.example` used to print opens nothing: a token signed
 * with its JWT secret is refused by the Data API and the Edge Functions, its secret key
 * takes no backup. A product on published keys (the integration stack runs on the tests')
 * gives no backup at all. Each start here runs in a scratch folder (LOCAL_KEYS_FILE,
 * LOCAL_DATA_DIR, LOCAL_STORAGE_DIR, its own build in APP_DIST_DIR).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { KeyError, createKeyFile, installationKeys, isPublishedKey, keyVariables, projectRoot, publishedKeySets, type LocalKeys } from "../../scripts/stack/env.ts";
import { freePort } from "../../scripts/stack/free-port.ts";
import { testKeys } from "../support/keys.ts";

const scratch = mkdtempSync(join(tmpdir(), "crm-installation-keys-"));
const keyFile = join(scratch, "installation-keys.env");
const dist = join(scratch, "dist");
const superAdminId = "0b000000-0000-4000-8000-000000000001";
const oldExample = publishedKeySets.oldExample;

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The environment of a fresh clone: no keys, no HOST; the key file and the build in the scratch folder. */
function freshEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOCAL_KEYS_FILE: keyFile, APP_DIST_DIR: dist, DATABASE_URL: "", ...extra };
  for (const name of [...Object.values(keyVariables), "VITE_SUPABASE_PUBLISHABLE_KEY", "VITE_SUPABASE_URL", "HOST"]) delete env[name];
  return env;
}

function readKeyFile(path = keyFile): LocalKeys {
  const values = parseEnv(readFileSync(path, "utf8"));
  return { publishableKey: values.SUPABASE_PUBLISHABLE_KEY!, secretKey: values.SUPABASE_SECRET_KEY!, jwtSecret: values.SUPABASE_JWT_SECRET! };
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Runs `action` with these environment variables (undefined: unset), then puts them back. */
function withEnvironment(variables: Record<string, string | undefined>, action: () => void) {
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(variables);
  try {
    action();
  } finally {
    apply(saved);
  }
}

/** Supabase's key format: `sb_<type>_` + 22 base64url characters + `_` + an 8-character checksum. */
const apiKeyFormat = (type: string) => new RegExp(`^sb_${type}_[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{8}$`);

function expectOwnKeys(keys: LocalKeys) {
  expect(keys.publishableKey).toMatch(apiKeyFormat("publishable"));
  expect(keys.secretKey).toMatch(apiKeyFormat("secret"));
  // 48 random bytes in base64url: 64 characters (at least 32 bytes asked).
  expect(keys.jwtSecret).toMatch(/^[A-Za-z0-9_-]{64}$/);
  for (const value of Object.values(keys)) expect(isPublishedKey(value)).toBe(false);
}

/** A token for the super admin, as Auth would sign it, with the given secret. */
function superAdminToken(secret: string): Promise<string> {
  return new SignJWT({ sub: superAdminId, role: "authenticated", aud: "authenticated", email: "super@demo.test", session_id: crypto.randomUUID() })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(secret));
}

it("holds for this machine: .env sets no keys here", () => {
  // The starts below must find no keys but the key file's, as a fresh clone does.
  const envFile = `${projectRoot}.env`;
  const set = existsSync(envFile) ? Object.keys(parseEnv(readFileSync(envFile, "utf8"))).filter((name) => name.startsWith("SUPABASE_")) : [];
  expect(set, "remove the SUPABASE_* keys from .env to run these tests").toEqual([]);
});

describe("the key file", () => {
  it("is made once when processes start at the same moment: one file of mode 600, the same keys for all, nothing half-written", async () => {
    const file = join(scratch, "concurrent", "keys.env");
    mkdirSync(join(scratch, "concurrent"));
    const script = join(scratch, "print-keys.ts");
    writeFileSync(
      script,
      `import { installationKeys } from ${JSON.stringify(`${projectRoot}scripts/stack/env.ts`)};\n` +
        "while (Date.now() < Number(process.env.START_AT)) {}\n" +
        "console.log(JSON.stringify(installationKeys()));\n",
    );
    const startAt = String(Date.now() + 4_000);
    const outputs = await Promise.all(
      Array.from({ length: 4 }, () =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(process.execPath, ["--import", "tsx", script], {
            cwd: projectRoot,
            env: freshEnvironment({ LOCAL_KEYS_FILE: file, START_AT: startAt }),
          });
          let stdout = "";
          child.stdout.on("data", (chunk) => (stdout += chunk));
          child.stderr.on("data", (chunk) => process.stderr.write(chunk));
          child.once("close", (code) => (code === 0 ? resolve(stdout.trim()) : reject(new Error(`exit ${code}`))));
        }),
      ),
    );
    expect(new Set(outputs).size).toBe(1);
    expect(JSON.parse(outputs[0])).toEqual(readKeyFile(file));
    expect(modeOf(file)).toBe(0o600);
    expect(readdirSync(join(scratch, "concurrent"))).toEqual(["keys.env"]);
    expectOwnKeys(readKeyFile(file));
  }, 60_000);

  it("is never replaced: a process that comes second (it found no file, then another made it) keeps the first one's keys", () => {
    const file = join(scratch, "second", "keys.env");
    mkdirSync(join(scratch, "second"));
    createKeyFile(file);
    const first = readFileSync(file, "utf8");
    createKeyFile(file);
    expect(readFileSync(file, "utf8")).toBe(first);
    expect(readdirSync(join(scratch, "second"))).toEqual(["keys.env"]);
  });

  it("gives way to keys set in the environment (an operator's own), and is then not made", () => {
    const file = join(scratch, "operator-keys.env");
    const own = { publishableKey: "sb_publishable_operator", secretKey: "sb_secret_operator", jwtSecret: "an-operator-secret-of-at-least-32-characters" };
    const variables = Object.fromEntries(Object.entries(keyVariables).map(([name, variable]) => [variable, own[name as keyof LocalKeys]]));
    withEnvironment({ LOCAL_KEYS_FILE: file, ...variables }, () => {
      expect(installationKeys()).toEqual(own);
      expect(existsSync(file)).toBe(false);
    });
  });

  it("is refused when other users can read it, or when it is damaged", () => {
    const file = join(scratch, "loose-keys.env");
    const noKeys = Object.fromEntries(Object.values(keyVariables).map((variable) => [variable, undefined]));
    withEnvironment({ LOCAL_KEYS_FILE: file, ...noKeys }, () => {
      installationKeys();
      chmodSync(file, 0o644);
      expect(() => installationKeys()).toThrow(KeyError);
      expect(() => installationKeys()).toThrow(`the key file ${file} can be read by other users of this machine (mode 644): run chmod 600 ${file}`);
      chmodSync(file, 0o600);
      writeFileSync(file, "SUPABASE_PUBLISHABLE_KEY=sb_publishable_x\n");
      expect(() => installationKeys()).toThrow(`the key file ${file} is incomplete or damaged: delete it, and the next npm start makes new keys`);
    });
  });
});

describe("a fresh clone's npm start", () => {
  let keys: LocalKeys;
  let product: { child: ChildProcess; url: string } | undefined;
  const dataDir = join(scratch, "pglite");
  const storageDir = join(scratch, "storage");

  /** scripts/start.ts as `npm start` runs it after its build, in a process group of its own. */
  async function startProduct(): Promise<{ child: ChildProcess; url: string }> {
    const port = await freePort();
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      cwd: projectRoot,
      env: freshEnvironment({ PORT: String(port), LOCAL_DATA_DIR: dataDir, LOCAL_STORAGE_DIR: storageDir }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not running after 120 s:\n${output}`)), 120_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("is running at")) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on("data", read);
      child.stderr!.on("data", read);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`npm start ended (${code}):\n${output}`));
      });
    });
    return { child, url: `http://127.0.0.1:${port}` };
  }

  async function stopProduct() {
    if (!product) return;
    const { child } = product;
    product = undefined;
    const ended = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid!, "SIGTERM");
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // The group has ended.
    }
  }

  afterAll(stopProduct);

  async function signIn(url: string, apikey: string) {
    return fetch(`${url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { "content-type": "application/json", apikey },
      body: JSON.stringify({ email: "admin@demo.test", password: "Demo.1234" }),
    });
  }

  it("builds first, which makes the keys: a file of mode 600, keys of its own, and only the publishable key in the bundle", () => {
    expect(existsSync(keyFile)).toBe(false);
    const build = spawnSync(`${projectRoot}node_modules/.bin/vite`, ["build", "--outDir", dist, "--emptyOutDir", "--logLevel", "error"], {
      cwd: projectRoot,
      env: freshEnvironment(),
      encoding: "utf8",
      timeout: 180_000,
    });
    expect(build.status, build.stderr).toBe(0);
    expect(modeOf(keyFile)).toBe(0o600);
    keys = readKeyFile();
    expectOwnKeys(keys);
    const bundle = readdirSync(join(dist, "assets"))
      .map((name) => readFileSync(join(dist, "assets", name), "utf8"))
      .join("\n");
    expect(bundle).toContain(keys.publishableKey);
    expect(bundle).not.toContain(keys.secretKey);
    expect(bundle).not.toContain(keys.jwtSecret);
    expect(bundle).not.toMatch(/sb_secret_/);
    for (const published of [oldExample.publishableKey, testKeys.publishableKey]) expect(bundle).not.toContain(published);
  }, 200_000);

  describe("started on them", () => {
    let keyText: string;
    let token: string;

    beforeAll(async () => {
      keyText = readFileSync(keyFile, "utf8");
      product = await startProduct();
    }, 150_000);

    it("reuses the key file, and signs in with its publishable key only", async () => {
      expect(readFileSync(keyFile, "utf8")).toBe(keyText);
      const answer = await signIn(product!.url, keys.publishableKey);
      expect(answer.status).toBe(200);
      token = ((await answer.json()) as { access_token: string }).access_token;
      for (const published of [oldExample.publishableKey, testKeys.publishableKey]) expect((await signIn(product!.url, published)).status).toBe(401);
    });

    it("refuses a token signed with .env.example's old JWT secret: Data API and Edge Function", async () => {
      const forged = await superAdminToken(oldExample.jwtSecret);
      const headers = { "content-type": "application/json", apikey: keys.publishableKey, authorization: `Bearer ${forged}` };
      const data = await fetch(`${product!.url}/rest/v1/rpc/list_organizations`, { method: "POST", headers, body: "{}" });
      expect(data.status).toBe(401);
      expect(JSON.stringify(await data.json())).not.toContain("Demo Ticaret");
      const edge = await fetch(`${product!.url}/functions/v1/current-user`, { method: "POST", headers, body: "{}" });
      expect(edge.status).toBe(401);
      expect(await edge.json()).toMatchObject({ code: "UNAUTHORIZED_INVALID_JWT" });
      // The same claims under this installation's secret pass the signature check (and meet
      // the session checks next): the refusal above is the secret's.
      const control = await fetch(`${product!.url}/rest/v1/rpc/list_organizations`, {
        method: "POST",
        headers: { ...headers, authorization: `Bearer ${await superAdminToken(keys.jwtSecret)}` },
        body: "{}",
      });
      expect(control.status).not.toBe(401);
    });

    it("gives no backup for .env.example's old secret key, nor any service-role access; one for its own", async () => {
      const backup = (key: string) => fetch(`${product!.url}/_stack/backup`, { method: "POST", headers: { authorization: `Bearer ${key}` } });
      for (const published of [oldExample.secretKey, testKeys.secretKey]) {
        const refused = await backup(published);
        expect(refused.status).toBe(401);
        expect(await refused.json()).toEqual({ message: "The secret key is required" });
        const rows = await fetch(`${product!.url}/rest/v1/rpc/get_current_user_context`, {
          method: "POST",
          headers: { "content-type": "application/json", apikey: published, authorization: `Bearer ${published}` },
          body: "{}",
        });
        expect(rows.status).toBe(401);
      }
      const own = await backup(keys.secretKey);
      expect(own.status).toBe(200);
      expect((await own.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }, 60_000);

    it("a second start reuses the same keys: the first start's session still holds", async () => {
      await stopProduct();
      product = await startProduct();
      expect(readFileSync(keyFile, "utf8")).toBe(keyText);
      expect(readdirSync(scratch).filter((name) => name.includes(".partial"))).toEqual([]);
      const user = await fetch(`${product.url}/auth/v1/user`, { headers: { apikey: keys.publishableKey, authorization: `Bearer ${token}` } });
      expect(user.status).toBe(200);
      expect(await user.json()).toMatchObject({ email: "admin@demo.test" });
    }, 150_000);
  });
});

describe("a product on published keys", () => {
  it("gives no backup at all, not even for its own (published) secret key", async () => {
    // The integration stack runs on the tests' keys, which are published.
    const answer = await fetch(`${inject("stackUrl")}/_stack/backup`, { method: "POST", headers: { authorization: `Bearer ${testKeys.secretKey}` } });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({
      message: 'Backups are refused: this product runs on a published secret key; give it its own (README, "Keys")',
    });
  });
});
