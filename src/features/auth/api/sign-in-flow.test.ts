import { AuthApiError, AuthRetryableFetchError, type AuthError } from "@supabase/supabase-js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { SIGN_IN_TIMEOUT_MS } from "@/session/timing.ts";
import { SignInError, signInTimeoutMessage, signInWithDeadline, type SignInBackend } from "./sign-in-flow.ts";

const demo = { id: "0a000000-0000-4000-8000-000000000001", slug: "demo", name: "Demo Ticaret A.Ş.", role: "sales" };
const acme = { id: "0a000000-0000-4000-8000-000000000002", slug: "acme", name: "Acme Sanayi Ltd.", role: "user" };
const user = { id: "7d1f7e0c-5a43-4b0e-9a57-0f6a2e4d1c11", email: "satis@demo.test", first_name: "Mehmet", last_name: "Demir" };
const prepared = (organizations = [demo]) => ({ success: true, user, organization: organizations[0], organizations });
const ok = { success: true };
const wrongPassword = () => new AuthApiError("Invalid login credentials", 400, "invalid_credentials");
const throttled = {
  success: false,
  error: "Too many sign-in attempts. Please wait 15 minutes and try again.",
  code: "too_many_attempts",
  retry_after_seconds: 900,
};

type Answers = Record<string, unknown | ((args: Record<string, unknown>) => unknown)>;

/** A backend whose RPCs answer from `answers` (a value, or a function of the arguments). */
function fakeBackend(answers: Answers, authErrors: (AuthError | null)[] = [null]) {
  const calls: string[] = [];
  const backend = {
    rpc: vi.fn(async (name: string, args: Record<string, unknown>, signal?: AbortSignal) => {
      calls.push(name);
      if (signal?.aborted) throw new Error("called after the deadline");
      const answer = answers[name];
      return typeof answer === "function" ? answer(args) : answer;
    }),
    signInWithPassword: vi.fn(async () => {
      calls.push("auth.signInWithPassword");
      return { error: authErrors.length > 1 ? (authErrors.shift() ?? null) : (authErrors[0] ?? null) };
    }),
    signOutLocally: vi.fn(async () => {
      calls.push("auth.signOut");
    }),
    recordSignIn: vi.fn(),
    forgetSignIn: vi.fn(),
    rememberOrganization: vi.fn(),
  } satisfies SignInBackend;
  return { backend, calls };
}

const credentials = { email: "Satis@Demo.test", password: "Demo.1234" };
const happyAnswers: Answers = {
  secure_login_prepare_auth: prepared(),
  bind_session_organization: { success: true, organization: demo },
  update_user_last_login: ok,
};

describe("the login flow (spec section 7)", () => {
  it("prepares, signs in, binds the only organization and records the login, in that order", async () => {
    const { backend, calls } = fakeBackend(happyAnswers);
    const result = await signInWithDeadline(backend, credentials);
    expect(calls).toEqual(["secure_login_prepare_auth", "auth.signInWithPassword", "bind_session_organization", "update_user_last_login"]);
    expect(result).toEqual({ userId: user.id, organization: demo, organizations: [demo] });
    expect(backend.rpc.mock.calls[0]?.[1]).toEqual({ p_email: "Satis@Demo.test", p_password: "Demo.1234" });
    // Auth gets the address as the database stores it.
    expect(backend.signInWithPassword).toHaveBeenCalledWith({ email: "satis@demo.test", password: "Demo.1234" });
    expect(backend.rpc.mock.calls[1]?.[1]).toEqual({ p_organization_id: demo.id });
    expect(backend.rpc.mock.calls[2]?.[1]).toEqual({ p_user_id: user.id });
    expect(backend.recordSignIn).toHaveBeenCalledWith(user.id);
    expect(backend.rememberOrganization).toHaveBeenCalledWith(demo);
  });

  it.each([
    ["an answer without its user", { ...prepared(), user: undefined }],
    ["a user id that is not a GUID", { ...prepared(), user: { ...user, id: "7" } }],
    ["an organization without its role", { ...prepared(), organizations: [{ ...demo, role: "" }] }],
    ["organizations that are not a list", { ...prepared(), organizations: demo }],
    ["no answer", null],
  ])("stops before Auth at %s from the database (checked by hand)", async (_, answer) => {
    const { backend, calls } = fakeBackend({ ...happyAnswers, secure_login_prepare_auth: answer });
    await expect(signInWithDeadline(backend, credentials)).rejects.toThrow("Unexpected answer from secure_login_prepare_auth");
    expect(calls).toEqual(["secure_login_prepare_auth"]);
  });

  it("keeps only the fields it knows from the database's answer", async () => {
    const extra = { ...demo, plan: "gold" };
    const { backend } = fakeBackend({ ...happyAnswers, secure_login_prepare_auth: prepared([extra]) });
    const result = await signInWithDeadline(backend, credentials);
    expect(result.organizations).toEqual([demo]);
    expect(backend.rememberOrganization).toHaveBeenCalledWith(demo);
  });

  it("fails on a binding the database did not confirm, and ends the session", async () => {
    const { backend, calls } = fakeBackend({ ...happyAnswers, bind_session_organization: { success: "yes" } });
    await expect(signInWithDeadline(backend, credentials)).rejects.toThrow("Unexpected answer from bind_session_organization");
    expect(calls).toContain("auth.signOut");
  });

  it("records the sign-in time before Auth reports the session", async () => {
    const { backend } = fakeBackend(happyAnswers);
    backend.signInWithPassword.mockImplementationOnce(async () => {
      expect(backend.recordSignIn).toHaveBeenCalled();
      return { error: null };
    });
    await signInWithDeadline(backend, credentials);
  });

  it("leaves a user with several organizations unbound, to choose", async () => {
    const { backend, calls } = fakeBackend({ ...happyAnswers, secure_login_prepare_auth: prepared([demo, acme]) });
    const result = await signInWithDeadline(backend, credentials);
    expect(result).toEqual({ userId: user.id, organization: null, organizations: [demo, acme] });
    expect(calls).not.toContain("bind_session_organization");
    expect(calls).toContain("update_user_last_login");
  });

  it("binds the organization asked for by its slug", async () => {
    const { backend, calls } = fakeBackend({
      ...happyAnswers,
      secure_login_prepare_auth: (args: Record<string, unknown>) => {
        expect(args.p_organization_slug).toBe("acme");
        return { ...prepared([demo, acme]), organization: acme };
      },
    });
    const result = await signInWithDeadline(backend, { ...credentials, organizationSlug: "acme" });
    expect(result.organization).toEqual(acme);
    expect(calls).toContain("bind_session_organization");
  });

  it.each([
    ["invalid_credentials", { success: false, error: "Invalid login credentials", code: "invalid_credentials" }],
    ["account_locked", { success: false, error: "Account is locked for 30 minutes", code: "account_locked", locked_minutes: 30 }],
    ["admin_locked", { success: false, error: "Account is locked by administrator", code: "admin_locked" }],
    ["account_disabled", { success: false, error: "User not found", code: "account_disabled" }],
    ["no_organization", { success: false, error: "User not found: Unable to determine organization for a@b.c", code: "no_organization" }],
    ["too_many_attempts", throttled],
  ])("stops at the database's refusal %s without calling Auth", async (code, refusal) => {
    const { backend, calls } = fakeBackend({ secure_login_prepare_auth: refusal });
    const failure = signInWithDeadline(backend, credentials);
    await expect(failure).rejects.toBeInstanceOf(RpcError);
    await expect(failure).rejects.toMatchObject({ code });
    expect(calls).toEqual(["secure_login_prepare_auth"]);
    expect(backend.recordSignIn).not.toHaveBeenCalled();
  });

  it("does not fail a sign-in because the last-login time could not be written", async () => {
    const { backend } = fakeBackend({
      ...happyAnswers,
      update_user_last_login: () => {
        throw new SignInError("login_error", "Login error: boom");
      },
    });
    await expect(signInWithDeadline(backend, credentials)).resolves.toMatchObject({ userId: user.id });
  });

  it("ends the new session when the binding is refused", async () => {
    const refusal = { success: false, error: "Account is locked by administrator", code: "admin_locked" };
    const { backend, calls } = fakeBackend({ ...happyAnswers, bind_session_organization: refusal });
    await expect(signInWithDeadline(backend, credentials)).rejects.toMatchObject({ code: "admin_locked" });
    expect(calls.at(-1)).toBe("auth.signOut");
    expect(calls).not.toContain("update_user_last_login");
  });
});

describe("repairing the Auth user", () => {
  it("synchronises the password when Auth refuses it, then retries once", async () => {
    const { backend, calls } = fakeBackend({ ...happyAnswers, sync_user_password: ok }, [wrongPassword(), null]);
    await signInWithDeadline(backend, credentials);
    expect(calls.slice(0, 4)).toEqual([
      "secure_login_prepare_auth",
      "auth.signInWithPassword",
      "sync_user_password",
      "auth.signInWithPassword",
    ]);
    expect(backend.rpc.mock.calls[1]?.[1]).toEqual({ p_email: user.email, p_password: "Demo.1234" });
  });

  it("creates the missing Auth user when the password cannot be synchronised", async () => {
    const { backend, calls } = fakeBackend(
      {
        ...happyAnswers,
        sync_user_password: { success: false, error: "Password sync failed", code: "password_sync_failed" },
        create_auth_user_admin: ok,
      },
      [wrongPassword(), null],
    );
    await signInWithDeadline(backend, credentials);
    expect(calls.slice(2, 5)).toEqual(["sync_user_password", "create_auth_user_admin", "auth.signInWithPassword"]);
    expect(backend.rpc.mock.calls[2]?.[1]).toEqual({
      p_email: user.email,
      p_password: "Demo.1234",
      p_first_name: "Mehmet",
      p_last_name: "Demir",
    });
  });

  it("reports 'Auth user creation failed' when neither repair is allowed", async () => {
    const { backend, calls } = fakeBackend(
      {
        ...happyAnswers,
        sync_user_password: { success: false, error: "Password sync failed", code: "password_sync_failed" },
        create_auth_user_admin: { success: false, error: "Auth user creation failed", code: "auth_user_creation_failed" },
      },
      [wrongPassword()],
    );
    await expect(signInWithDeadline(backend, credentials)).rejects.toMatchObject({ code: "auth_user_creation_failed" });
    expect(calls.filter((call) => call === "auth.signInWithPassword")).toHaveLength(1);
  });

  it("retries only once, then reports that the session could not be created", async () => {
    const { backend, calls } = fakeBackend({ ...happyAnswers, sync_user_password: ok }, [wrongPassword(), wrongPassword()]);
    const failure = signInWithDeadline(backend, credentials);
    await expect(failure).rejects.toBeInstanceOf(SignInError);
    await expect(failure).rejects.toMatchObject({
      code: "session_creation_failed",
      message: "Authentication session creation failed: Invalid login credentials",
    });
    expect(calls.filter((call) => call === "auth.signInWithPassword")).toHaveLength(2);
    expect(calls).not.toContain("bind_session_organization");
  });

  it("neither repairs nor retries when Auth's rate limit answers", async () => {
    const limited = new AuthApiError("Request rate limit reached", 429, "over_request_rate_limit");
    const { backend, calls } = fakeBackend(happyAnswers, [limited]);
    await expect(signInWithDeadline(backend, credentials)).rejects.toBe(limited);
    expect(calls).toEqual(["secure_login_prepare_auth", "auth.signInWithPassword"]);
    expect(backend.forgetSignIn).toHaveBeenCalled();
  });

  it("stops the repair when the database throttles it", async () => {
    const { backend, calls } = fakeBackend({ ...happyAnswers, sync_user_password: throttled }, [wrongPassword()]);
    await expect(signInWithDeadline(backend, credentials)).rejects.toMatchObject({
      code: "too_many_attempts",
      details: { retry_after_seconds: 900 },
    });
    expect(calls).toEqual(["secure_login_prepare_auth", "auth.signInWithPassword", "sync_user_password"]);
  });

  it("passes Auth's rate limit on after a repair instead of a session failure", async () => {
    const limited = new AuthApiError("Request rate limit reached", 429, "over_request_rate_limit");
    const { backend, calls } = fakeBackend({ ...happyAnswers, sync_user_password: ok }, [wrongPassword(), limited]);
    await expect(signInWithDeadline(backend, credentials)).rejects.toBe(limited);
    expect(calls.filter((call) => call === "auth.signInWithPassword")).toHaveLength(2);
  });

  it("does not repair when Auth cannot be reached", async () => {
    const { backend, calls } = fakeBackend(happyAnswers, [new AuthRetryableFetchError("Failed to fetch", 0)]);
    await expect(signInWithDeadline(backend, credentials)).rejects.toBeInstanceOf(AuthRetryableFetchError);
    expect(calls).not.toContain("sync_user_password");
  });

  it("takes the sign-in time back when no session came of it", async () => {
    const { backend } = fakeBackend({ ...happyAnswers, sync_user_password: ok }, [wrongPassword(), wrongPassword()]);
    await expect(signInWithDeadline(backend, credentials)).rejects.toMatchObject({ code: "session_creation_failed" });
    expect(backend.recordSignIn).toHaveBeenCalled();
    expect(backend.forgetSignIn).toHaveBeenCalled();
    expect(backend.signOutLocally).not.toHaveBeenCalled();
  });
});

describe("the 25-second limit", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A backend whose named RPC answers only when `release` is called. */
  function stalledBackend(stalledRpc: string) {
    let release: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const { backend, calls } = fakeBackend(happyAnswers);
    backend.rpc.mockImplementation(async (name: string) => {
      calls.push(name);
      if (name === stalledRpc) await stalled;
      return happyAnswers[name];
    });
    return { backend, calls, release: () => release() };
  }

  it("gives up after 25 seconds with the catalogue's timeout text", async () => {
    const { backend } = stalledBackend("secure_login_prepare_auth");
    const failure = signInWithDeadline(backend, credentials);
    const outcome = failure.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(SIGN_IN_TIMEOUT_MS - 1);
    expect(await Promise.race([outcome, Promise.resolve("pending")])).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(SignInError);
    expect(error).toMatchObject({ code: "timeout", message: "Login timeout - 25 seconds exceeded. Please check your connection." });
    expect(signInTimeoutMessage).toBe("Login timeout - 25 seconds exceeded. Please check your connection.");
  });

  it("passes an abort signal that fires at the deadline", async () => {
    const { backend } = stalledBackend("secure_login_prepare_auth");
    const outcome = signInWithDeadline(backend, credentials).catch(() => undefined);
    const signal = backend.rpc.mock.calls[0]?.[2];
    if (!signal) throw new Error("no signal passed");
    expect(signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(SIGN_IN_TIMEOUT_MS);
    await outcome;
    expect(signal.aborted).toBe(true);
  });

  it("stops a late flow at its next step and ends the session it made", async () => {
    const { backend, calls, release } = stalledBackend("bind_session_organization");
    const outcome = signInWithDeadline(backend, credentials).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(SIGN_IN_TIMEOUT_MS);
    expect(await outcome).toMatchObject({ code: "timeout" });
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).not.toContain("update_user_last_login");
    expect(backend.rememberOrganization).not.toHaveBeenCalled();
    expect(backend.signOutLocally).toHaveBeenCalled();
  });

  it("does not time out a sign-in that finished in time", async () => {
    const { backend } = fakeBackend(happyAnswers);
    await signInWithDeadline(backend, credentials);
    await vi.advanceTimersByTimeAsync(SIGN_IN_TIMEOUT_MS * 2);
    expect(backend.signOutLocally).not.toHaveBeenCalled();
    expect(backend.forgetSignIn).not.toHaveBeenCalled();
  });
});
