import type { AuthChangeEvent, Session } from "@supabase/supabase-js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SessionController, type SessionAuthClient } from "./session-controller.ts";
import {
  AUTH_INIT_TIMEOUT_MS,
  LOGOUT_REDIRECT_DELAY_MS,
  SESSION_CHECK_INTERVAL_MS,
  SESSION_MAX_AGE_MS,
  SESSION_REFRESH_MARGIN_MS,
} from "./timing.ts";

const userId = "7d1f7e0c-5a43-4b0e-9a57-0f6a2e4d1c11";
const start = new Date("2026-11-21T09:00:00Z").getTime();

/** A session whose access token expires `lifetimeMs` from now. */
function session(lifetimeMs = 3_600_000): Session {
  return {
    access_token: "access",
    refresh_token: "refresh",
    token_type: "bearer",
    expires_in: lifetimeMs / 1000,
    expires_at: Math.floor((Date.now() + lifetimeMs) / 1000),
    user: { id: userId } as Session["user"],
  };
}

/** A stand-in for supabase-js's Auth client that the test drives. */
function fakeAuth() {
  let listener: ((event: AuthChangeEvent, session: Session | null) => void) | undefined;
  const auth = {
    onAuthStateChange: vi.fn((callback: (event: AuthChangeEvent, session: Session | null) => void) => {
      listener = callback;
      return { data: { subscription: { unsubscribe: vi.fn(() => (listener = undefined)) } } };
    }),
    refreshSession: vi.fn(() => Promise.resolve({})),
    signOut: vi.fn((): Promise<{ error: unknown }> => {
      listener?.("SIGNED_OUT", null);
      return Promise.resolve({ error: null });
    }),
  } satisfies SessionAuthClient;
  return { auth, emit: (event: AuthChangeEvent, value: Session | null) => listener?.(event, value) };
}

function setUp(options: { signedInAt?: number | null; hasSessionData?: boolean; hasStoredSession?: boolean } = {}) {
  const { auth, emit } = fakeAuth();
  let unauthorized: (() => void) | undefined;
  const signedInAt = vi.fn(() => (options.signedInAt === undefined ? start : options.signedInAt));
  const removeStoredSession = vi.fn();
  const clearSessionData = vi.fn();
  const controller = new SessionController({
    auth,
    onUnauthorized: (listener) => {
      unauthorized = listener;
      return () => (unauthorized = undefined);
    },
    signedInAt,
    hasSessionData: () => options.hasSessionData ?? false,
    hasStoredSession: () => options.hasStoredSession ?? true,
    removeStoredSession,
    clearSessionData,
  });
  const stop = controller.start();
  return {
    controller,
    auth,
    emit,
    stop,
    signedInAt,
    removeStoredSession,
    clearSessionData,
    respond401: () => unauthorized?.(),
    status: () => controller.getState().status,
    reason: () => {
      const state = controller.getState();
      return "reason" in state ? state.reason : undefined;
    },
  };
}

/** Emits an Auth event and lets the controller's deferred reaction run. */
async function deliver(emit: (event: AuthChangeEvent, value: Session | null) => void, event: AuthChangeEvent, value: Session | null) {
  emit(event, value);
  await vi.advanceTimersByTimeAsync(0);
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(start);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("start-up", () => {
  it("is loading until Auth reports the stored session", async () => {
    const { emit, status } = setUp();
    expect(status()).toBe("loading");
    await deliver(emit, "INITIAL_SESSION", session());
    expect(status()).toBe("signedIn");
  });

  it("starts signed out at once, without waiting for Auth, when no session is stored", async () => {
    const { emit, status } = setUp({ hasStoredSession: false });
    expect(status()).toBe("signedOut");
    await deliver(emit, "INITIAL_SESSION", null);
    expect(status()).toBe("signedOut");
  });

  it("is signed out when Auth finds nothing to restore", async () => {
    const { emit, status, auth } = setUp();
    await deliver(emit, "INITIAL_SESSION", null);
    expect(status()).toBe("signedOut");
    expect(auth.signOut).not.toHaveBeenCalled();
  });

  it("ends, with a reason, a session Auth dropped before the app listened (refused refresh token)", async () => {
    const { emit, status, reason, clearSessionData } = setUp({ hasSessionData: true });
    await deliver(emit, "INITIAL_SESSION", null);
    expect(status()).toBe("signingOut");
    expect(clearSessionData).toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(LOGOUT_REDIRECT_DELAY_MS);
    expect([status(), reason()]).toEqual(["signedOut", "ended"]);
  });

  it("ends it just the same when Auth had already removed it before the app was built", async () => {
    const { emit, status, reason } = setUp({ hasSessionData: true, hasStoredSession: false });
    expect(status()).toBe("loading");
    await deliver(emit, "INITIAL_SESSION", null);
    await vi.advanceTimersByTimeAsync(LOGOUT_REDIRECT_DELAY_MS);
    expect([status(), reason()]).toEqual(["signedOut", "ended"]);
  });

  it("gives up on authentication initialisation after 8 seconds and continues signed out", async () => {
    const { status } = setUp();
    await vi.advanceTimersByTimeAsync(AUTH_INIT_TIMEOUT_MS - 1);
    expect(status()).toBe("loading");
    await vi.advanceTimersByTimeAsync(1);
    expect(status()).toBe("signedOut");
  });

  it("keeps the session that arrives before the 8 seconds are up", async () => {
    const { emit, status } = setUp();
    await vi.advanceTimersByTimeAsync(AUTH_INIT_TIMEOUT_MS - 100);
    await deliver(emit, "INITIAL_SESSION", session());
    await vi.advanceTimersByTimeAsync(1_000);
    expect(status()).toBe("signedIn");
  });

  it("ends a stored session older than 24 hours at once", async () => {
    const { emit, status, reason, auth } = setUp({ signedInAt: start - SESSION_MAX_AGE_MS });
    await deliver(emit, "INITIAL_SESSION", session());
    expect(status()).toBe("signingOut");
    expect(auth.signOut).toHaveBeenCalledWith({ scope: "local" });
    await vi.advanceTimersByTimeAsync(LOGOUT_REDIRECT_DELAY_MS);
    expect([status(), reason()]).toEqual(["signedOut", "expired"]);
  });

  it("ends a stored session this browser has no sign-in time for", async () => {
    const { emit, reason, auth } = setUp({ signedInAt: null });
    await deliver(emit, "INITIAL_SESSION", session());
    expect(auth.signOut).toHaveBeenCalled();
    expect(reason()).toBe("expired");
  });
});

describe("the 30-second check", () => {
  it("ends the session once it is 24 hours old, at the next check", async () => {
    const { emit, status, reason } = setUp();
    await deliver(emit, "INITIAL_SESSION", session(SESSION_MAX_AGE_MS * 2));
    // 24 h less one check interval: still fine.
    await vi.advanceTimersByTimeAsync(SESSION_MAX_AGE_MS - SESSION_CHECK_INTERVAL_MS);
    expect(status()).toBe("signedIn");
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS);
    expect(status()).toBe("signingOut");
    await vi.advanceTimersByTimeAsync(LOGOUT_REDIRECT_DELAY_MS);
    expect([status(), reason()]).toEqual(["signedOut", "expired"]);
  });

  it("refreshes the access token when 90 seconds or less remain, not before", async () => {
    const { emit, auth } = setUp();
    // Checks fall at 30, 60, 90, ... s; the token expires at 180 s, so 90 s remain at the
    // third check.
    await deliver(emit, "INITIAL_SESSION", session(180_000));
    await vi.advanceTimersByTimeAsync(2 * SESSION_CHECK_INTERVAL_MS);
    expect(auth.refreshSession).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS);
    expect(auth.refreshSession).toHaveBeenCalledTimes(1);
    expect(180_000 - 3 * SESSION_CHECK_INTERVAL_MS).toBe(SESSION_REFRESH_MARGIN_MS);
  });

  it("does not refresh a token with more than 90 seconds left", async () => {
    const { emit, auth } = setUp();
    await deliver(emit, "INITIAL_SESSION", session(SESSION_REFRESH_MARGIN_MS + SESSION_CHECK_INTERVAL_MS + 1_000));
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS - 1);
    expect(auth.refreshSession).not.toHaveBeenCalled();
  });

  it("works with the refreshed session afterwards", async () => {
    const { emit, auth, controller } = setUp();
    await deliver(emit, "INITIAL_SESSION", session(60_000));
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS);
    expect(auth.refreshSession).toHaveBeenCalledTimes(1);
    const refreshed = session(3_600_000);
    await deliver(emit, "TOKEN_REFRESHED", refreshed);
    expect(controller.getState()).toEqual({ status: "signedIn", session: refreshed });
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS);
    expect(auth.refreshSession).toHaveBeenCalledTimes(1);
  });

  it("does nothing while signed out", async () => {
    const { emit, auth } = setUp();
    await deliver(emit, "INITIAL_SESSION", null);
    await vi.advanceTimersByTimeAsync(SESSION_MAX_AGE_MS);
    expect(auth.refreshSession).not.toHaveBeenCalled();
    expect(auth.signOut).not.toHaveBeenCalled();
  });
});

describe("signing out", () => {
  it("clears the session and the app's data, then is signed out after about 100 ms", async () => {
    const { controller, emit, auth, clearSessionData, status, reason } = setUp();
    await deliver(emit, "INITIAL_SESSION", session());
    const done = controller.signOut();
    expect(status()).toBe("signingOut");
    await vi.advanceTimersByTimeAsync(0);
    expect(auth.signOut).toHaveBeenCalledWith({ scope: "local" });
    expect(clearSessionData).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(LOGOUT_REDIRECT_DELAY_MS - 1);
    expect(status()).toBe("signingOut");
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect([status(), reason()]).toEqual(["signedOut", "signedOut"]);
  });

  it("removes the stored session itself when Auth cannot be reached", async () => {
    const { controller, emit, auth, removeStoredSession, clearSessionData, status } = setUp();
    await deliver(emit, "INITIAL_SESSION", session());
    auth.signOut.mockResolvedValueOnce({ error: new Error("Failed to fetch") });
    const done = controller.signOut();
    await vi.advanceTimersByTimeAsync(LOGOUT_REDIRECT_DELAY_MS);
    await done;
    expect(removeStoredSession).toHaveBeenCalledTimes(1);
    expect(clearSessionData).toHaveBeenCalledTimes(1);
    expect(status()).toBe("signedOut");
  });

  it("runs once when asked twice", async () => {
    const { controller, emit, auth } = setUp();
    await deliver(emit, "INITIAL_SESSION", session());
    const first = controller.signOut();
    const second = controller.signOut("expired");
    await vi.advanceTimersByTimeAsync(LOGOUT_REDIRECT_DELAY_MS);
    await Promise.all([first, second]);
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it("is forced by a 401 to a signed-in request", async () => {
    const { emit, auth, respond401, status, reason } = setUp();
    await deliver(emit, "INITIAL_SESSION", session());
    respond401();
    expect(auth.signOut).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(LOGOUT_REDIRECT_DELAY_MS);
    expect([status(), reason()]).toEqual(["signedOut", "unauthorized"]);
  });

  it("ignores a 401 while signed out", async () => {
    const { emit, auth, respond401 } = setUp();
    await deliver(emit, "INITIAL_SESSION", null);
    respond401();
    expect(auth.signOut).not.toHaveBeenCalled();
  });

  it("is forced when Auth ends the session (an invalid refresh token)", async () => {
    const { emit, clearSessionData, status, reason } = setUp();
    await deliver(emit, "INITIAL_SESSION", session());
    // supabase-js removes a session whose refresh token it cannot use and reports SIGNED_OUT.
    await deliver(emit, "SIGNED_OUT", null);
    expect(status()).toBe("signingOut");
    expect(clearSessionData).toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(LOGOUT_REDIRECT_DELAY_MS);
    expect([status(), reason()]).toEqual(["signedOut", "ended"]);
  });

  it("takes the next sign-in afterwards", async () => {
    const { controller, emit, status } = setUp();
    await deliver(emit, "INITIAL_SESSION", session());
    const done = controller.signOut();
    await vi.advanceTimersByTimeAsync(LOGOUT_REDIRECT_DELAY_MS);
    await done;
    await deliver(emit, "SIGNED_IN", session());
    expect(status()).toBe("signedIn");
  });
});

describe("stopping", () => {
  it("stops the checks, the 401 watch and the Auth subscription", async () => {
    const { emit, auth, stop, respond401, status } = setUp();
    await deliver(emit, "INITIAL_SESSION", session(60_000));
    stop();
    respond401();
    await vi.advanceTimersByTimeAsync(SESSION_MAX_AGE_MS);
    expect(auth.refreshSession).not.toHaveBeenCalled();
    expect(auth.signOut).not.toHaveBeenCalled();
    expect(status()).toBe("signedIn");
  });

  it("notifies subscribers of every change", async () => {
    const { controller, emit } = setUp();
    const listener = vi.fn();
    controller.subscribe(listener);
    await deliver(emit, "INITIAL_SESSION", session());
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
