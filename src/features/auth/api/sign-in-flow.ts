import type { AuthError } from "@supabase/auth-js";
// The error checks alone (not the package's index, which would bring all of Auth to the login page).
import { isAuthApiError } from "@supabase/auth-js/dist/module/lib/errors.js";
import { isGuid, type StoredOrganization } from "@/lib/browser-storage.ts";
import { RpcError, throwIfRefused } from "@/lib/rpc.ts";
import { SIGN_IN_TIMEOUT_MS } from "@/session/timing.ts";
import type { Credentials } from "./credentials.ts";

/** Failures of the flow itself, with the spec's catalogue texts (section 8). */
export type SignInFailure = "timeout" | "session_creation_failed" | "login_error" | "network";

export class SignInError extends Error {
  override name = "SignInError";
  constructor(
    readonly code: SignInFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const signInTimeoutMessage = "Login timeout - 25 seconds exceeded. Please check your connection.";

export interface SignInOrganization {
  id: string;
  slug: string;
  name: string;
  /** The user's role there. */
  role: string;
}

interface PreparedUser {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
}

interface Prepared {
  user: PreparedUser;
  organization: SignInOrganization;
  organizations: SignInOrganization[];
}

// The login's answers are checked by hand (the first screen carries no schema library): an
// answer of another shape fails the flow like any unexpected error.
type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === "string" && value.length > 0;
const isTextOrNull = (value: unknown) => value === null || typeof value === "string";

function unexpectedAnswer(name: string): Error {
  return new Error(`Unexpected answer from ${name}`);
}

function isOrganization(value: unknown): value is SignInOrganization {
  return isObject(value) && isGuid(value.id) && isText(value.slug) && isText(value.name) && isText(value.role);
}

/** A refusal as RpcError; otherwise the answer must be a success. */
function succeeded(name: string, data: unknown): Json {
  throwIfRefused(data);
  if (!isObject(data) || data.success !== true) throw unexpectedAnswer(name);
  return data;
}

function prepared(data: unknown): Prepared {
  const { user, organization, organizations } = succeeded("secure_login_prepare_auth", data);
  if (
    isObject(user) &&
    isGuid(user.id) &&
    isText(user.email) &&
    isTextOrNull(user.first_name) &&
    isTextOrNull(user.last_name) &&
    isOrganization(organization) &&
    Array.isArray(organizations) &&
    organizations.every(isOrganization)
  ) {
    const { id, email, first_name, last_name } = user as unknown as PreparedUser;
    const pick = ({ id, slug, name, role }: SignInOrganization) => ({ id, slug, name, role });
    return { user: { id, email, first_name, last_name }, organization: pick(organization), organizations: organizations.map(pick) };
  }
  throw unexpectedAnswer("secure_login_prepare_auth");
}

export interface SignInInput extends Credentials {
  /** Sign in to this organization (its slug) rather than to the first available one. */
  organizationSlug?: string;
}

export interface SignInResult {
  userId: string;
  /** The organization the session was bound to, or null when the person must choose one. */
  organization: SignInOrganization | null;
  organizations: SignInOrganization[];
}

/** What the flow needs from the backend and the browser (supabase-js in the app, fakes in tests). */
export interface SignInBackend {
  /** Calls an RPC; answers its JSON, or throws (SignInError "network" when unreachable). */
  rpc(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
  signInWithPassword(credentials: { email: string; password: string }): Promise<{ error: AuthError | null }>;
  /** Ends whatever session a failed or abandoned flow left behind. */
  signOutLocally(): Promise<void>;
  /** Notes when this browser signed the user in (the 24-hour limit counts from here). */
  recordSignIn(userId: string): void;
  /** Takes that note back when no session came of it. */
  forgetSignIn(): void;
  rememberOrganization(organization: StoredOrganization): void;
}

/**
 * Too many sign-in attempts from this client: the database's throttle (`too_many_attempts`,
 * with retry_after_seconds) or Auth's rate limit (HTTP 429). Nothing is repaired or retried then.
 */
export function isThrottled(error: unknown): boolean {
  return (error instanceof RpcError && error.code === "too_many_attempts") || (isAuthApiError(error) && error.status === 429);
}

/** Auth refused a password the database has just accepted: its copy is missing or stale. */
function authUserNeedsRepair(error: AuthError): boolean {
  return isAuthApiError(error) && ["invalid_credentials", "user_not_found", "email_not_confirmed"].includes(error.code ?? "");
}

function abandonIfLate(signal: AbortSignal) {
  if (signal.aborted) throw new SignInError("timeout", signInTimeoutMessage);
}

/** Step 2 of the flow: Auth's password sign-in, with one repair and one retry. */
async function signInToAuth(
  backend: SignInBackend,
  call: (name: string, args: Record<string, unknown>) => Promise<unknown>,
  user: PreparedUser,
  password: string,
  signal: AbortSignal,
): Promise<void> {
  const credentials = { email: user.email, password };
  let { error } = await backend.signInWithPassword(credentials);
  abandonIfLate(signal);
  if (!error) return;
  if (!authUserNeedsRepair(error)) throw error;
  const repairArgs = { p_email: user.email, p_password: password };
  try {
    succeeded("sync_user_password", await call("sync_user_password", repairArgs));
  } catch (refusal) {
    // The password could not be synchronised: the Auth user is missing, so it is created.
    if (!(refusal instanceof RpcError) || isThrottled(refusal)) throw refusal;
    succeeded(
      "create_auth_user_admin",
      await call("create_auth_user_admin", { ...repairArgs, p_first_name: user.first_name, p_last_name: user.last_name }),
    );
  }
  ({ error } = await backend.signInWithPassword(credentials));
  abandonIfLate(signal);
  if (error) {
    if (isThrottled(error)) throw error;
    throw new SignInError("session_creation_failed", `Authentication session creation failed: ${error.message}`, {
      cause: error,
    });
  }
}

/** The spec's login flow (section 7), without the deadline. */
async function runSignIn(backend: SignInBackend, input: SignInInput, signal: AbortSignal): Promise<SignInResult> {
  const call = async (name: string, args: Record<string, unknown>) => {
    const answer = await backend.rpc(name, args, signal);
    abandonIfLate(signal);
    return answer;
  };

  // 1. The database checks the password and the lockout, logs the attempt and names the
  //    organization (RpcError with the refusal's code otherwise).
  const answer = prepared(
    await call("secure_login_prepare_auth", {
      p_email: input.email,
      p_password: input.password,
      ...(input.organizationSlug ? { p_organization_slug: input.organizationSlug } : {}),
    }),
  );
  const { user } = answer;
  backend.recordSignIn(user.id);

  // 2. Auth signs in. If it refuses the password the database accepted, the Auth user is
  //    repaired (password synchronised, or the user completed) and the sign-in retried once.
  try {
    await signInToAuth(backend, call, user, input.password, signal);
  } catch (failure) {
    backend.forgetSignIn();
    throw failure;
  }

  try {
    // 3. One organization (or the one asked for) is bound to the session at once; with
    //    several, the person chooses on /select-organization.
    const organization =
      answer.organizations.length === 1 || input.organizationSlug ? answer.organization : null;
    if (organization) {
      succeeded("bind_session_organization", await call("bind_session_organization", { p_organization_id: organization.id }));
      backend.rememberOrganization(organization);
    }

    // 4. The last-login time. A sign-in that got this far is not failed for a timestamp.
    try {
      await call("update_user_last_login", { p_user_id: user.id });
    } catch (lastLoginError) {
      if (lastLoginError instanceof SignInError && lastLoginError.code === "timeout") throw lastLoginError;
    }
    return { userId: user.id, organization, organizations: answer.organizations };
  } catch (failure) {
    await backend.signOutLocally();
    throw failure;
  }
}

/**
 * Signs in, or fails after `timeoutMs` (spec: 25 s) with the catalogue's timeout text. A flow
 * still running at the deadline is stopped at its next step, and any session it made is ended.
 */
export async function signInWithDeadline(
  backend: SignInBackend,
  input: SignInInput,
  timeoutMs = SIGN_IN_TIMEOUT_MS,
): Promise<SignInResult> {
  const deadline = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      deadline.abort();
      reject(new SignInError("timeout", signInTimeoutMessage));
    }, timeoutMs);
  });
  const flow = runSignIn(backend, input, deadline.signal);
  try {
    return await Promise.race([flow, timedOut]);
  } catch (error) {
    if (deadline.signal.aborted) {
      // Whatever the late flow still does, its session must not outlive the failure shown.
      void flow.then(
        () => backend.signOutLocally(),
        () => backend.signOutLocally(),
      );
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

