/**
 * Sign-in, second pass (issue 23), on the local stack: the password path keeps working
 * with the JWTs lite writes (the database refuses only sessions whose amr names a code);
 * a password change sent straight to Auth (past the front's guard) changes nothing; a
 * real account's right password gets through whatever unknown emails and other addresses
 * do, on the login RPC and on direct Auth; right-password sign-ins of the login RPC are
 * limited per account (answered on both paths), and a direct Auth sign-in that did not
 * follow the login RPC is logged; the lock answer of an unknown email on direct Auth is a
 * real account's. This file runs its own stack: it fills the sign-in log and changes the
 * throttle's settings.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/stack/free-port.ts";
import { startStack, type RunningStack } from "../../scripts/stack/server.ts";
import { createMember, testPassword } from "../support/accounts.ts";
import { testKeys } from "../support/keys.ts";
import { anonClient, rpc, signedInClient } from "../support/clients.ts";

let stack: RunningStack;

beforeAll(async () => {
  stack = await startStack({ port: await freePort(), seed: true, keys: testKeys });
});

afterAll(async () => {
  await stack?.stop();
});

const signIn = (email: string, password: string) => anonClient(stack.url).auth.signInWithPassword({ email, password });
const prepare = (email: string, password: string) =>
  rpc(anonClient(stack.url), "secure_login_prepare_auth", { p_email: email, p_password: password });
const sql = <T extends Record<string, unknown>>(text: string, params: unknown[] = []) => stack.backend.sql.query<T>(text, params);

/** The JSON payload of a JWT (no check of its signature: the test only reads it). */
function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as Record<string, unknown>;
}

describe("the password session", () => {
  it("carries no amr from lite, counts as a password session and binds", async () => {
    const { email, password } = await createMember(stack.url);
    const { client, session } = await signedInClient(stack.url, email, password);
    const payload = jwtPayload(session.access_token);
    // lite signs in by password only and writes no amr; a token without amr counts as password.
    expect(payload.amr).toBeUndefined();
    expect(payload.session_id).toEqual(expect.any(String));
    expect(await rpc(client, "get_current_user_context")).toMatchObject({ success: true });
    expect(await rpc(client, "get_my_permissions")).toMatchObject({ success: true });
  });
});

describe("a password change through Auth", () => {
  it("changes nothing even when it reaches Auth past the front's guard", async () => {
    const { email, password } = await createMember(stack.url);
    const { session } = await signedInClient(stack.url, email, password);
    const [before] = await sql<{ hash: string }>("select encrypted_password as hash from auth.users where email = $1", [email]);

    const answer = await stack.backend.api.fetch(
      new Request(`${stack.url}/auth/v1/user`, {
        method: "PUT",
        headers: {
          apikey: stack.keys.publishableKey,
          authorization: `Bearer ${session.access_token}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ password: "Yeni.Sifre.42" }),
      }),
    );
    expect(answer.status).toBeGreaterThanOrEqual(400);

    const [after] = await sql<{ hash: string }>("select encrypted_password as hash from auth.users where email = $1", [email]);
    expect(after.hash).toBe(before.hash);
    expect((await signIn(email, password)).error).toBeNull();
    expect((await signIn(email, "Yeni.Sifre.42")).error).toMatchObject({ code: "invalid_credentials" });
    // The product's own change still works.
    const { client } = await signedInClient(stack.url, email, password);
    expect(await rpc(client, "change_my_password", { p_current_password: password, p_new_password: "Yeni.Sifre.43" })).toMatchObject({
      success: true,
    });
    expect((await signIn(email, "Yeni.Sifre.43")).error).toBeNull();
  });
});

describe("the throttle slows the attacker, not the users", () => {
  afterAll(async () => {
    await sql("delete from private.login_attempts where email like 'spray-%' or email like 'other-%'");
  });

  it("lets a real account's right password through 1,025 failures, and holds back the unknown emails", async () => {
    const { email } = await createMember(stack.url);
    // 1,000 unknown-email failures from 50 addresses within the minute (half of them direct
    // Auth), and 25 from this client's own address for other emails.
    await sql(
      `insert into private.login_attempts (email, success, failure_reason, source, client_address, created_at)
       select format('spray-%s@nowhere.test', g), false, 'invalid_credentials',
              case when g % 2 = 0 then 'auth' else 'login' end, format('203.0.113.%s', g % 50)::inet, now() - interval '5 seconds'
         from generate_series(1, 1000) g`,
    );
    await sql(
      `insert into private.login_attempts (email, success, failure_reason, source, client_address, created_at)
       select format('other-%s@demo.test', g), false, 'invalid_credentials', 'login', '127.0.0.1', now() - interval '5 seconds'
         from generate_series(1, 25) g`,
    );

    expect(await prepare(email, testPassword)).toMatchObject({ success: true });
    const direct = await signIn(email, testPassword);
    expect(direct.error).toBeNull();
    expect(direct.data.session).not.toBeNull();

    const attacker = ["spray-late-1@nowhere.test", "spray-late-2@nowhere.test"];
    expect(await prepare(attacker[0], "Wrong.1")).toEqual({ success: false, error: "Invalid login credentials", code: "invalid_credentials" });
    expect((await signIn(attacker[1], "Wrong.2")).error).toMatchObject({
      status: 400,
      code: "invalid_credentials",
      message: "Invalid login credentials",
    });
    const logged = await sql<{ failure_reason: string }>(
      "select failure_reason from private.login_attempts where email = any($1) order by id",
      [attacker],
    );
    expect(logged).toEqual([{ failure_reason: "throttled" }, { failure_reason: "throttled" }]);
  });
});

describe("right-password sign-ins of one account", () => {
  let saved: number;
  // Made before the limit is lowered: making one signs the super admin in (counted too).
  let members: Awaited<ReturnType<typeof createMember>>[];

  beforeAll(async () => {
    members = [];
    for (let made = 0; made < 4; made += 1) members.push(await createMember(stack.url));
    const [row] = await sql<{ limit: number }>("select account_success_limit as limit from private.security_settings");
    saved = row.limit;
    await sql("update private.security_settings set account_success_limit = 3");
  });

  afterAll(async () => {
    await sql("update private.security_settings set account_success_limit = $1", [saved]);
  });

  it("are limited on the login RPC and on direct Auth, for that account only", async () => {
    const { email } = members[0];
    for (let attempt = 1; attempt <= 3; attempt += 1) expect(await prepare(email, testPassword)).toMatchObject({ success: true });
    expect(await prepare(email, testPassword)).toMatchObject({
      success: false,
      code: "too_many_attempts",
      error: "Too many sign-in attempts. Please wait 5 minutes and try again.",
    });
    const direct = await signIn(email, testPassword);
    expect(direct.data.session).toBeNull();
    expect(direct.error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
    expect(await prepare(members[1].email, testPassword)).toMatchObject({ success: true });
  });

  it("count right passwords sent straight to Auth too (each a bcrypt run)", async () => {
    const { email } = members[2];
    for (let attempt = 1; attempt <= 3; attempt += 1) expect((await signIn(email, testPassword)).error).toBeNull();
    expect((await signIn(email, testPassword)).error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
    expect(await prepare(email, testPassword)).toMatchObject({ success: false, code: "too_many_attempts" });
  });

  it("log direct Auth sign-ins that did not follow the login RPC, and not the app's own twice", async () => {
    const { email } = members[3];
    // The app's way: the login RPC, then Auth (which takes the RPC's proof): one entry each.
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      expect(await prepare(email, testPassword)).toMatchObject({ success: true });
      expect((await signIn(email, testPassword)).error).toBeNull();
    }
    // Straight to Auth: an entry of its own.
    expect((await signIn(email, testPassword)).error).toBeNull();
    const logged = await sql<{ source: string }>(
      "select source from private.login_attempts where email = $1 and success order by id",
      [email],
    );
    expect(logged.map((row) => row.source)).toEqual(["login", "login", "auth"]);
  });
});

describe("direct Auth tells nothing about whether an email exists", () => {
  it("locks an unknown email after five failures with a real account's answers", async () => {
    const { email } = await createMember(stack.url);
    const unknown = `phantom-${Date.now()}@test.example`;
    const answers = async (address: string) => {
      const messages: (string | undefined)[] = [];
      for (let attempt = 1; attempt <= 6; attempt += 1) messages.push((await signIn(address, `Wrong.${attempt}`)).error?.message);
      messages.push((await signIn(address, testPassword)).error?.message);
      return messages;
    };
    const expected = [...Array(4).fill("Invalid login credentials"), ...Array(3).fill("Account is locked for 30 minutes")];
    expect(await answers(email)).toEqual(expected);
    expect(await answers(unknown)).toEqual(expected);
  });

  it("takes about as long for an unknown email as for a real one (measured, not asserted)", async () => {
    const { email } = await createMember(stack.url);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const timed = async (address: string) => {
      const durations: number[] = [];
      for (let attempt = 0; attempt < 20; attempt += 1) {
        // Fresh state each time: neither the account's lock nor the address's limit is reached.
        await sql("update private.profiles set failed_login_attempts = 0, locked_until = null where email = $1", [email]);
        await sql("delete from private.login_throttles");
        await sql("delete from private.login_attempts where client_address = '127.0.0.1'");
        const started = performance.now();
        const { error } = await signIn(address, "Wrong.Guess.1");
        durations.push(performance.now() - started);
        expect(error).toMatchObject({ code: "invalid_credentials", message: "Invalid login credentials" });
      }
      return median(durations);
    };
    const known = await timed(email);
    const unknown = await timed(`ghost-${Date.now()}@test.example`);
    console.log(`direct Auth, wrong password, median of 20: known account ${known.toFixed(1)} ms, unknown email ${unknown.toFixed(1)} ms`);
  });
});
