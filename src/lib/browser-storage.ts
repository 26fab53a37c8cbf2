import { z } from "zod";

/**
 * What the app keeps in the browser besides Supabase's own session (spec section 3): the
 * terms acceptance per user email, the current organization and its id, the request-forgery
 * token, when this browser's session was signed in (for the 24-hour limit), and the import
 * this browser was running (to offer resuming it). Every value is
 * checked when read: a value that is missing, malformed or written by another version reads
 * as absent.
 */

/** localStorage keys; e2e tests use them to prepare or age a browser's state. */
export const storageKeys = {
  /** supabase-js's own session (its storageKey; fixed so sign-out can always clear it). */
  auth: "crm.auth",
  termsAcceptedEmails: "crm.termsAcceptedEmails",
  currentOrganization: "crm.currentOrganization",
  currentOrganizationId: "crm.currentOrganizationId",
  requestToken: "crm.requestToken",
  signIn: "crm.signIn",
  runningImport: "crm.runningImport",
} as const;

function storage(): Storage | undefined {
  // Private modes and locked-down browsers may refuse access to localStorage.
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

function read<T extends z.ZodType>(key: string, schema: T): z.output<T> | null {
  const raw = storage()?.getItem(key);
  if (raw == null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // A full or refused storage only costs the convenience the value offers.
  }
}

function remove(key: string): void {
  storage()?.removeItem(key);
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

// ---------------------------------------------------------------------------------------
// Terms acceptance, per user email, on this browser
// ---------------------------------------------------------------------------------------

const emailsSchema = z.array(z.string());

export function hasAcceptedTerms(email: string): boolean {
  return (read(storageKeys.termsAcceptedEmails, emailsSchema) ?? []).includes(normalizeEmail(email));
}

export function recordTermsAccepted(email: string): void {
  const emails = new Set(read(storageKeys.termsAcceptedEmails, emailsSchema) ?? []);
  emails.add(normalizeEmail(email));
  write(storageKeys.termsAcceptedEmails, [...emails]);
}

// ---------------------------------------------------------------------------------------
// The current organization (a copy of the server-side binding, for display only)
// ---------------------------------------------------------------------------------------

export const storedOrganizationSchema = z.object({
  id: z.guid(),
  slug: z.string().min(1),
  name: z.string().min(1),
});

export type StoredOrganization = z.infer<typeof storedOrganizationSchema>;

export function readCurrentOrganization(): StoredOrganization | null {
  const organization = read(storageKeys.currentOrganization, storedOrganizationSchema);
  const id = read(storageKeys.currentOrganizationId, z.guid());
  return organization && organization.id === id ? organization : null;
}

export function writeCurrentOrganization(organization: StoredOrganization): void {
  const { id, slug, name } = organization;
  write(storageKeys.currentOrganization, { id, slug, name });
  write(storageKeys.currentOrganizationId, id);
}

// ---------------------------------------------------------------------------------------
// The request-forgery token (spec section 9: 32 random bytes, valid 1 hour)
// ---------------------------------------------------------------------------------------

export const storedRequestTokenSchema = z.object({
  token: z.string().min(1),
  /** Milliseconds since the epoch. */
  expiresAt: z.number(),
  /** False once a function refused it: the next privileged call gets a new one. */
  enabled: z.boolean(),
});

export type StoredRequestToken = z.infer<typeof storedRequestTokenSchema>;

export function readRequestToken(): StoredRequestToken | null {
  return read(storageKeys.requestToken, storedRequestTokenSchema);
}

export function writeRequestToken(token: StoredRequestToken): void {
  write(storageKeys.requestToken, token);
}

// ---------------------------------------------------------------------------------------
// When this browser signed in with a password (the 24-hour limit counts from here)
// ---------------------------------------------------------------------------------------

const signInRecordSchema = z.object({ userId: z.string().min(1), signedInAt: z.number() });

export type SignInRecord = z.infer<typeof signInRecordSchema>;

export function recordSignIn(userId: string, signedInAt: number): void {
  write(storageKeys.signIn, { userId, signedInAt } satisfies SignInRecord);
}

/** When this user signed in on this browser, or null when nothing (valid) is recorded. */
export function signedInAt(userId: string): number | null {
  const record = read(storageKeys.signIn, signInRecordSchema);
  return record?.userId === userId ? record.signedInAt : null;
}

/** Whether a sign-in of this app is recorded (the session may since have been dropped). */
export function hasSignInRecord(): boolean {
  return read(storageKeys.signIn, signInRecordSchema) !== null;
}

export function forgetSignIn(): void {
  remove(storageKeys.signIn);
}

// ---------------------------------------------------------------------------------------
// The import this browser was running (its id; the server says whether it still runs)
// ---------------------------------------------------------------------------------------

const runningImportSchema = z.object({ userId: z.string().min(1), importId: z.guid() });

export function writeRunningImport(userId: string, importId: string): void {
  write(storageKeys.runningImport, { userId, importId } satisfies z.infer<typeof runningImportSchema>);
}

/** The import this user started on this browser and has not finished, or null. */
export function readRunningImport(userId: string): string | null {
  const stored = read(storageKeys.runningImport, runningImportSchema);
  return stored?.userId === userId ? stored.importId : null;
}

export function forgetRunningImport(): void {
  remove(storageKeys.runningImport);
}

/** Forgets everything tied to the session (the terms acceptance stays: it is per email). */
export function clearSessionData(): void {
  remove(storageKeys.currentOrganization);
  remove(storageKeys.currentOrganizationId);
  remove(storageKeys.requestToken);
  remove(storageKeys.signIn);
}
