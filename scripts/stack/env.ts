/**
 * Settings of the local stack: the process environment first, then `.env`, then the
 * defaults in code (`.env.example` only documents the settings; nothing reads it).
 *
 * Keys: an installation makes its own on the first call that needs them (the first
 * `npm start`, whose `vite build` comes first) and keeps them in a git-ignored file of mode
 * 600, `.installation-keys.env` (LOCAL_KEYS_FILE elsewhere), beside the data folders but
 * not in them: `npm run db:reset` keeps the keys, so the built app and the server keep
 * agreeing. SUPABASE_PUBLISHABLE_KEY, SUPABASE_SECRET_KEY and SUPABASE_JWT_SECRET in the
 * environment or in `.env` override the file's (an operator's own keys). Tests and the
 * tools that start their own stacks use the fixed test keys below, always explicitly.
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, existsSync, fsyncSync, linkSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";

export const projectRoot = fileURLToPath(new URL("../../", import.meta.url));

function readEnvFile(path: string): Record<string, string | undefined> {
  return existsSync(path) ? parseEnv(readFileSync(path, "utf8")) : {};
}

/** A setting from the environment or `.env`, else undefined. `.env` is read when asked (it may change). */
function setting(name: string): string | undefined {
  return process.env[name] || readEnvFile(`${projectRoot}.env`)[name] || undefined;
}

export interface LocalKeys {
  publishableKey: string;
  secretKey: string;
  jwtSecret: string;
}

/** Each key's variable, as in `.env`, the key file and the Edge Functions' environment. */
export const keyVariables: Record<keyof LocalKeys, string> = {
  publishableKey: "SUPABASE_PUBLISHABLE_KEY",
  secretKey: "SUPABASE_SECRET_KEY",
  jwtSecret: "SUPABASE_JWT_SECRET",
};

/**
 * Keys printed in public places: whoever holds them signs a token as any user (the JWT
 * secret) or acts as service_role and takes a backup (the secret key). The one list of
 * them: `npm start` refuses to listen beyond this machine with any of them, the backup
 * endpoint refuses to work on them, and an installation's own keys are never one of them.
 */
export const publishedKeySets = {
  /** What `.env.example` carried, as every clone's default, until issue 23. */
  oldExample: {
    publishableKey: "sb_publishable_LOCALDEVONLY_satiscrm_0000000001",
    secretKey: "sb_secret_LOCALDEVONLY_satiscrm_000000000000001",
    jwtSecret: "local-dev-only-jwt-secret-satiscrm-0000000000000001",
  },
  /**
   * The tests' own keys (tests/support/keys.ts): every stack a test, the e2e run, `npm run
   * bench`, `fuzz`, `load` or `faults` starts gets them explicitly; never a product default.
   */
  tests: {
    publishableKey: "sb_publishable_TESTSONLY_satiscrm_00000000001",
    secretKey: "sb_secret_TESTSONLY_satiscrm_0000000000000001",
    jwtSecret: "tests-only-jwt-secret-satiscrm-00000000000000000001",
  },
  /** The Supabase CLI's local JWT secret, printed in its documentation. */
  supabaseCli: { jwtSecret: "super-secret-jwt-token-with-at-least-32-characters-long" },
} satisfies Record<string, Partial<LocalKeys>>;

const publishedValues = new Set(Object.values(publishedKeySets).flatMap((set) => Object.values(set)));

/** Whether a key is one of the published ones. */
export function isPublishedKey(value: string): boolean {
  return publishedValues.has(value);
}

/**
 * The variables of the keys that give power (the secret key, the JWT secret) whose values
 * are published. The publishable key is public by design and is not counted.
 */
export function publishedSecrets(keys: LocalKeys): string[] {
  return (["jwtSecret", "secretKey"] as const).filter((name) => isPublishedKey(keys[name])).map((name) => keyVariables[name]);
}

/** The keys as environment variables (a child process that resolves keys gets exactly these). */
export function keyEnvironment(keys: LocalKeys): Record<string, string> {
  return Object.fromEntries(Object.entries(keyVariables).map(([name, variable]) => [variable, keys[name as keyof LocalKeys]]));
}

/**
 * An API key in Supabase's format, as @supabase/lite's generateApiKey makes them:
 * `sb_<type>_` + 22 base64url characters (17 random bytes) + `_` + an 8-character checksum.
 */
function apiKey(type: "publishable" | "secret"): string {
  const body = `sb_${type}_${randomBytes(17).toString("base64url").slice(0, 22)}`;
  const checksum = createHash("sha256").update(`supabase-self-hosted|${body}`).digest("base64url").slice(0, 8);
  return `${body}_${checksum}`;
}

/** New random keys: Supabase-format API keys and a JWT secret of 48 random bytes. */
export function generateKeys(): LocalKeys {
  return { publishableKey: apiKey("publishable"), secretKey: apiKey("secret"), jwtSecret: randomBytes(48).toString("base64url") };
}

/** Why the keys cannot be read: said as it is to the person starting the product. */
export class KeyError extends Error {}

/** Where the installation's keys are kept (LOCAL_KEYS_FILE, default `.installation-keys.env`). */
export function keyFilePath(): string {
  return process.env.LOCAL_KEYS_FILE || `${projectRoot}.installation-keys.env`;
}

function keyFileText(keys: LocalKeys): string {
  return (
    "# Satış CRM: this installation's own keys, made on its first start. Secret: keep this file\n" +
    "# to yourself (mode 600, git-ignored). Deleting it makes new keys on the next npm start\n" +
    "# (every session ends; npm start builds the app again with the new publishable key).\n" +
    Object.entries(keyEnvironment(keys)).map(([variable, value]) => `${variable}=${value}\n`).join("")
  );
}

/**
 * Creates the key file with new keys, atomically: the whole text goes to a temporary file
 * created with mode 600 (never wider, not even for a moment), which is then hard-linked to
 * its name. A link never replaces a file: when two processes start at once, the first link
 * wins and the other reads the winner's keys. Nobody ever reads a half-written file.
 */
export function createKeyFile(path: string): void {
  const temporary = `${path}.${process.pid}-${randomBytes(6).toString("hex")}.partial`;
  const descriptor = openSync(temporary, "wx", 0o600);
  try {
    writeSync(descriptor, keyFileText(generateKeys()));
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** The key file's keys, the file created first when it does not exist. */
function keyFileKeys(): LocalKeys {
  const path = keyFilePath();
  if (!existsSync(path)) {
    try {
      createKeyFile(path);
    } catch (error) {
      throw new KeyError(`this installation's keys cannot be written to ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  let text: string;
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new KeyError(`this installation's keys cannot be read from ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (process.platform !== "win32" && (mode & 0o077) !== 0) {
    throw new KeyError(`the key file ${path} can be read by other users of this machine (mode ${mode.toString(8)}): run chmod 600 ${path}`);
  }
  const values = parseEnv(text);
  const keys = {
    publishableKey: values.SUPABASE_PUBLISHABLE_KEY ?? "",
    secretKey: values.SUPABASE_SECRET_KEY ?? "",
    jwtSecret: values.SUPABASE_JWT_SECRET ?? "",
  };
  if (!keys.publishableKey.startsWith("sb_publishable_") || !keys.secretKey.startsWith("sb_secret_") || keys.jwtSecret.length < 32) {
    throw new KeyError(`the key file ${path} is incomplete or damaged: delete it, and the next npm start makes new keys`);
  }
  return keys;
}

/**
 * The product's keys: each from the environment or `.env` when set there, else from the
 * installation's key file (made now if it does not exist yet). Throws KeyError.
 */
export function installationKeys(): LocalKeys {
  const configured = {
    publishableKey: setting(keyVariables.publishableKey),
    secretKey: setting(keyVariables.secretKey),
    jwtSecret: setting(keyVariables.jwtSecret),
  };
  if (configured.publishableKey && configured.secretKey && configured.jwtSecret) return configured as LocalKeys;
  const file = keyFileKeys();
  return {
    publishableKey: configured.publishableKey ?? file.publishableKey,
    secretKey: configured.secretKey ?? file.secretKey,
    jwtSecret: configured.jwtSecret ?? file.jwtSecret,
  };
}

/**
 * Where `npm start` keeps the product's data: a PostgreSQL database (DATABASE_URL) or the
 * embedded database's folder (LOCAL_DATA_DIR, default .data/pglite), and Storage's object
 * files (LOCAL_STORAGE_DIR, default .data/storage). The one place these defaults live.
 */
export function localData(): { databaseUrl?: string; dataDir: string; storageDir: string } {
  return {
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.LOCAL_DATA_DIR || `${projectRoot}.data/pglite`,
    storageDir: process.env.LOCAL_STORAGE_DIR || `${projectRoot}.data/storage`,
  };
}

/** The port of `npm start` (PORT, default 54321). */
export function defaultPort(): number {
  return Number(setting("PORT") ?? 54321);
}

/** The local mail server's SMTP port for `npm start` (SMTP_PORT, default 54325; on 127.0.0.1 only). */
export function defaultMailPort(): number {
  return Number(setting("SMTP_PORT") ?? 54325);
}

/** The address `npm start` listens on (HOST, default 127.0.0.1: this machine only). */
export function listenHost(): string {
  return setting("HOST") ?? "127.0.0.1";
}

/** Whether an address is this machine's own: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare) || /^::ffff:127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * The Supabase CLI binary. The npm wrapper package `supabase` cannot be locked here (the
 * registry lacks some of its other-platform binaries, which `npm ci` then reports missing),
 * so the project depends on the Linux x64 binary package directly, as an optional dependency.
 * Elsewhere, `npx supabase` does the same job.
 */
export const supabaseCli = `${projectRoot}node_modules/@supabase/cli-linux-x64/bin/supabase`;
