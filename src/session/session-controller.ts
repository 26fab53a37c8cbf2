import type { AuthChangeEvent, Session } from "@supabase/supabase-js";
import type { SessionState, SignOutReason } from "./session-context.ts";
import {
  AUTH_INIT_TIMEOUT_MS,
  LOGOUT_REDIRECT_DELAY_MS,
  SESSION_CHECK_INTERVAL_MS,
  SESSION_MAX_AGE_MS,
  SESSION_REFRESH_MARGIN_MS,
} from "./timing.ts";

/** The part of supabase-js's Auth client the controller uses (a fake in tests). */
export interface SessionAuthClient {
  onAuthStateChange(callback: (event: AuthChangeEvent, session: Session | null) => void): {
    data: { subscription: { unsubscribe(): void } };
  };
  refreshSession(): Promise<unknown>;
  signOut(options: { scope: "local" }): Promise<{ error: unknown }>;
}

export interface SessionControllerOptions {
  auth: SessionAuthClient;
  /** Registers for 401 answers to signed-in requests; returns the unsubscribe function. */
  onUnauthorized(listener: () => void): () => void;
  /** When this browser signed this user in (ms), or null when not recorded. */
  signedInAt(userId: string): number | null;
  /** Whether this browser still holds the data of a session this app started. */
  hasSessionData(): boolean;
  /** Whether supabase-js has a session stored in this browser at all. */
  hasStoredSession(): boolean;
  /** Removes supabase-js's stored session directly: used when Auth cannot be reached. */
  removeStoredSession(): void;
  /** Forgets what the app keeps for the session (organization, request token, caches...). */
  clearSessionData(): void;
  now?: () => number;
}

/**
 * The session's life (spec sections 4 and 9), apart from React so fake timers can drive it:
 * - start-up waits at most 8 s for the stored session, then goes on signed out;
 * - every 30 s: a session older than 24 h is ended; an access token with 90 s or less left is
 *   refreshed (supabase-js's own ticker usually does it a tick earlier; this is the guarantee);
 * - a 401 to a signed-in request, and Auth ending the session (invalid refresh token, sign-out
 *   in another tab, or a stored session Auth dropped at start-up), force a sign-out;
 * - a sign-out clears the session and the app's session data, and 100 ms later the state is
 *   signed out, which sends the guarded pages to /login.
 */
export class SessionController {
  private state: SessionState = { status: "loading" };
  private readonly listeners = new Set<() => void>();
  private ending: Promise<void> | null = null;
  private readonly now: () => number;

  constructor(private readonly options: SessionControllerOptions) {
    this.now = options.now ?? Date.now;
    // Nothing stored means nothing to restore: the login page need not wait for Auth. Unless
    // this browser still holds a session's data: then Auth dropped the session before the app
    // was listening (the app renders once its catalogue has loaded), and start() ends it.
    if (!options.hasStoredSession() && !options.hasSessionData()) this.state = { status: "signedOut" };
  }

  getState = (): SessionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Starts watching; returns the function that stops (React's effect cleanup). */
  start(): () => void {
    const initTimeout = setTimeout(() => {
      if (this.state.status === "loading") this.setState({ status: "signedOut" });
    }, AUTH_INIT_TIMEOUT_MS);

    // supabase-js calls this with INITIAL_SESSION first (once the stored session is loaded and,
    // if needed, refreshed), then on every sign-in, refresh and sign-out. Auth methods must not
    // be awaited inside the callback (supabase-js holds its lock), so reactions are deferred.
    const { data } = this.options.auth.onAuthStateChange((event, session) => {
      clearTimeout(initTimeout);
      setTimeout(() => this.handleAuthEvent(event, session), 0);
    });
    const stopWatching401 = this.options.onUnauthorized(() => {
      if (this.state.status === "signedIn") void this.signOut("unauthorized");
    });
    const ticker = setInterval(() => this.check(), SESSION_CHECK_INTERVAL_MS);

    return () => {
      clearTimeout(initTimeout);
      clearInterval(ticker);
      stopWatching401();
      data.subscription.unsubscribe();
    };
  }

  signOut = (reason: SignOutReason = "signedOut"): Promise<void> => {
    this.ending ??= this.endSession(reason).finally(() => {
      this.ending = null;
    });
    return this.ending;
  };

  private async endSession(reason: SignOutReason): Promise<void> {
    this.setState({ status: "signingOut", reason });
    try {
      // "local" ends this browser's session only; the user's other devices stay signed in.
      const { error } = await this.options.auth.signOut({ scope: "local" });
      if (error) this.options.removeStoredSession();
    } catch {
      this.options.removeStoredSession();
    }
    this.options.clearSessionData();
    await new Promise((resolve) => setTimeout(resolve, LOGOUT_REDIRECT_DELAY_MS));
    this.setState({ status: "signedOut", reason });
  }

  private handleAuthEvent(event: AuthChangeEvent, session: Session | null): void {
    if (this.ending) return;
    if (session) {
      if (this.isTooOld(session)) {
        void this.signOut("expired");
        return;
      }
      this.setState({ status: "signedIn", session });
      return;
    }
    if (this.state.status === "signedIn") {
      // Auth ended a live session: an invalid refresh token, or a sign-out in another tab.
      void this.signOut(event === "SIGNED_OUT" ? "ended" : "unauthorized");
      return;
    }
    if (this.state.status === "loading") {
      // A session this browser had is gone at start-up: Auth dropped it (its refresh token
      // was refused) before the app was listening. It ends like any other forced logout.
      if (this.options.hasSessionData()) void this.signOut("ended");
      else this.setState({ status: "signedOut" });
    }
  }

  /** The 30-second tick. */
  private check(): void {
    if (this.state.status !== "signedIn" || this.ending) return;
    const { session } = this.state;
    if (this.isTooOld(session)) {
      void this.signOut("expired");
      return;
    }
    const expiresAt = (session.expires_at ?? Infinity) * 1000;
    if (expiresAt - this.now() <= SESSION_REFRESH_MARGIN_MS) {
      // A refresh Auth refuses ends in SIGNED_OUT, which handleAuthEvent turns into a sign-out.
      this.options.auth.refreshSession().catch(() => undefined);
    }
  }

  /** Older than 24 h, or not signed in through this app on this browser at all. */
  private isTooOld(session: Session): boolean {
    const since = this.options.signedInAt(session.user.id);
    return since === null || this.now() - since >= SESSION_MAX_AGE_MS;
  }

  private setState(state: SessionState): void {
    this.state = state;
    this.listeners.forEach((listener) => listener());
  }
}
