import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  clearSessionData,
  forgetRunningImport,
  hasAcceptedTerms,
  readCurrentOrganization,
  readRequestToken,
  readRunningImport,
  recordSignIn,
  recordTermsAccepted,
  signedInAt,
  storageKeys,
  writeCurrentOrganization,
  writeRequestToken,
  writeRunningImport,
} from "./browser-storage.ts";

/** localStorage as the browser has it (Node has none). */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
  vi.stubGlobal("localStorage", storage);
});
afterEach(() => vi.unstubAllGlobals());

const demo = { id: "0a000000-0000-4000-8000-000000000001", slug: "demo", name: "Demo Ticaret A.Ş." };

describe("terms acceptance", () => {
  it("is remembered per email, whatever its case or spacing", () => {
    expect(hasAcceptedTerms("satis@demo.test")).toBe(false);
    recordTermsAccepted(" Satis@Demo.test ");
    expect(hasAcceptedTerms("satis@demo.test")).toBe(true);
    expect(hasAcceptedTerms("admin@demo.test")).toBe(false);
    recordTermsAccepted("admin@demo.test");
    recordTermsAccepted("admin@demo.test");
    expect(JSON.parse(storage.getItem(storageKeys.termsAcceptedEmails) ?? "")).toEqual(["satis@demo.test", "admin@demo.test"]);
  });

  it("survives the end of the session", () => {
    recordTermsAccepted("satis@demo.test");
    clearSessionData();
    expect(hasAcceptedTerms("satis@demo.test")).toBe(true);
  });

  it("reads a malformed value as nothing accepted", () => {
    storage.setItem(storageKeys.termsAcceptedEmails, "{not json");
    expect(hasAcceptedTerms("satis@demo.test")).toBe(false);
    recordTermsAccepted("satis@demo.test");
    expect(hasAcceptedTerms("satis@demo.test")).toBe(true);
  });
});

describe("current organization", () => {
  it("keeps the organization and its id", () => {
    writeCurrentOrganization({ ...demo, role: "admin" } as typeof demo);
    expect(readCurrentOrganization()).toEqual(demo);
    expect(JSON.parse(storage.getItem(storageKeys.currentOrganizationId) ?? "")).toBe(demo.id);
  });

  it("reads as absent when the two disagree", () => {
    writeCurrentOrganization(demo);
    storage.setItem(storageKeys.currentOrganizationId, JSON.stringify("0a000000-0000-4000-8000-000000000002"));
    expect(readCurrentOrganization()).toBeNull();
  });
});

describe("request token", () => {
  it("keeps the token, its expiry and the enabled flag", () => {
    const token = { token: "abc", expiresAt: 1_800_000_000_000, enabled: true };
    writeRequestToken(token);
    expect(readRequestToken()).toEqual(token);
  });

  it("reads a value of another shape as absent", () => {
    storage.setItem(storageKeys.requestToken, JSON.stringify({ token: "abc", expiresAt: "soon" }));
    expect(readRequestToken()).toBeNull();
  });
});

describe("sign-in time", () => {
  it("is known for the user who signed in only", () => {
    recordSignIn("user-1", 1_000);
    expect(signedInAt("user-1")).toBe(1_000);
    expect(signedInAt("user-2")).toBeNull();
  });
});

describe("running import", () => {
  const importId = "0b000000-0000-4000-8000-000000000002";

  it("is the user's own, until forgotten", () => {
    expect(readRunningImport("user-1")).toBeNull();
    writeRunningImport("user-1", importId);
    expect(readRunningImport("user-1")).toBe(importId);
    expect(readRunningImport("user-2")).toBeNull();
    forgetRunningImport();
    expect(readRunningImport("user-1")).toBeNull();
  });

  it("reads a malformed value as none", () => {
    storage.setItem(storageKeys.runningImport, JSON.stringify({ userId: "user-1", importId: "not-an-id" }));
    expect(readRunningImport("user-1")).toBeNull();
  });
});

describe("clearSessionData", () => {
  it("forgets the organization, the request token and the sign-in time", () => {
    writeCurrentOrganization(demo);
    writeRequestToken({ token: "abc", expiresAt: 1, enabled: true });
    recordSignIn("user-1", 1_000);
    storage.setItem("crm.language", "en");
    clearSessionData();
    expect(readCurrentOrganization()).toBeNull();
    expect(readRequestToken()).toBeNull();
    expect(signedInAt("user-1")).toBeNull();
    expect(storage.getItem("crm.language")).toBe("en");
  });
});
