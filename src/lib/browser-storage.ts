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

// Values are checked by hand: this module is part of the first screen, which carries no
// schema library.
type Check<T> = (value: unknown) => value is T;
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === "string" && value.length > 0;
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** A GUID (8-4-4-4-12 hex digits; seeded fixtures use fixed ids that are not RFC 9562 UUIDs). */
export function isGuid(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(value);
}

function read<T>(key: string, check: Check<T>): T | null {
  const raw = storage()?.getItem(key);
  if (raw == null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return check(value) ? value : null;
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

const isEmails = (value: unknown): value is string[] => Array.isArray(value) && value.every((email) => typeof email === "string");

export function hasAcceptedTerms(email: string): boolean {
  return (read(storageKeys.termsAcceptedEmails, isEmails) ?? []).includes(normalizeEmail(email));
}

export function recordTermsAccepted(email: string): void {
  const emails = new Set(read(storageKeys.termsAcceptedEmails, isEmails) ?? []);
  emails.add(normalizeEmail(email));
  write(storageKeys.termsAcceptedEmails, [...emails]);
}

// ---------------------------------------------------------------------------------------
// The current organization (a copy of the server-side binding, for display only)
// ---------------------------------------------------------------------------------------

export interface StoredOrganization {
  id: string;
  slug: string;
  name: string;
}

const isStoredOrganization = (value: unknown): value is StoredOrganization =>
  isObject(value) && isGuid(value.id) && isText(value.slug) && isText(value.name);

export function readCurrentOrganization(): StoredOrganization | null {
  const organization = read(storageKeys.currentOrganization, isStoredOrganization);
  const id = read(storageKeys.currentOrganizationId, isGuid);
  return organization && organization.id === id ? { id: organization.id, slug: organization.slug, name: organization.name } : null;
}

export function writeCurrentOrganization(organization: StoredOrganization): void {
  const { id, slug, name } = organization;
  write(storageKeys.currentOrganization, { id, slug, name });
  write(storageKeys.currentOrganizationId, id);
}

// ---------------------------------------------------------------------------------------
// The request-forgery token (spec section 9: 32 random bytes, valid 1 hour)
// ---------------------------------------------------------------------------------------

export interface StoredRequestToken {
  token: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** False once a function refused it: the next privileged call gets a new one. */
  enabled: boolean;
}

const isStoredRequestToken = (value: unknown): value is StoredRequestToken =>
  isObject(value) && isText(value.token) && isNumber(value.expiresAt) && typeof value.enabled === "boolean";

export function readRequestToken(): StoredRequestToken | null {
  const stored = read(storageKeys.requestToken, isStoredRequestToken);
  return stored && { token: stored.token, expiresAt: stored.expiresAt, enabled: stored.enabled };
}

export function writeRequestToken(token: StoredRequestToken): void {
  write(storageKeys.requestToken, token);
}

// ---------------------------------------------------------------------------------------
// When this browser signed in with a password (the 24-hour limit counts from here)
// ---------------------------------------------------------------------------------------

export interface SignInRecord {
  userId: string;
  signedInAt: number;
}

const isSignInRecord = (value: unknown): value is SignInRecord =>
  isObject(value) && isText(value.userId) && isNumber(value.signedInAt);

export function recordSignIn(userId: string, signedInAt: number): void {
  write(storageKeys.signIn, { userId, signedInAt } satisfies SignInRecord);
}

/** When this user signed in on this browser, or null when nothing (valid) is recorded. */
export function signedInAt(userId: string): number | null {
  const record = read(storageKeys.signIn, isSignInRecord);
  return record?.userId === userId ? record.signedInAt : null;
}

/** Whether a sign-in of this app is recorded (the session may since have been dropped). */
export function hasSignInRecord(): boolean {
  return read(storageKeys.signIn, isSignInRecord) !== null;
}

export function forgetSignIn(): void {
  remove(storageKeys.signIn);
}

// ---------------------------------------------------------------------------------------
// The import this browser was running (its id; the server says whether it still runs)
// ---------------------------------------------------------------------------------------

interface RunningImport {
  userId: string;
  importId: string;
}

const isRunningImport = (value: unknown): value is RunningImport => isObject(value) && isText(value.userId) && isGuid(value.importId);

export function writeRunningImport(userId: string, importId: string): void {
  write(storageKeys.runningImport, { userId, importId } satisfies RunningImport);
}

/** The import this user started on this browser and has not finished, or null. */
export function readRunningImport(userId: string): string | null {
  const stored = read(storageKeys.runningImport, isRunningImport);
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
