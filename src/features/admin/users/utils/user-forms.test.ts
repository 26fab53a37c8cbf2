import { describe, expect, it } from "vitest";
import type { OrganizationUser } from "../api/schemas.ts";
import {
  createUserRequest,
  createUserSchema,
  editUserSchema,
  editValuesOf,
  emptyCreateValues,
  isValidEmail,
  resetPasswordSchema,
  userDataChanges,
} from "./user-forms.ts";

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));

describe("isValidEmail", () => {
  it("follows the database's simple pattern after trimming", () => {
    expect(isValidEmail(" Ali@Example.com ")).toBe(true);
    for (const bad of ["", "ali", "ali@example", "ali@@example.com", "a li@example.com", `${"a".repeat(250)}@x.com`]) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
  });
});

describe("createUserSchema", () => {
  it("gives the server's Turkish messages as catalogue keys", () => {
    const result = createUserSchema.safeParse({ ...emptyCreateValues, email: "nope", password: "12345" });
    expect(messages(result)).toEqual({
      email: "adminUsers.errors.invalid_email",
      password: "passwordRules.tooShort",
    });
  });

  it("refuses a password over 72 bytes (counted in bytes) and names over 100 characters", () => {
    const result = createUserSchema.safeParse({
      ...emptyCreateValues,
      email: "a@b.co",
      password: "ş".repeat(37),
      firstName: "x".repeat(101),
      lastName: ` ${"y".repeat(100)} `,
    });
    expect(messages(result)).toEqual({
      password: "passwordRules.tooLong",
      firstName: "adminUsers.errors.name_too_long",
    });
  });

  it("accepts a complete form", () => {
    expect(createUserSchema.safeParse({ ...emptyCreateValues, email: "a@b.co", password: "123456" }).success).toBe(true);
  });
});

describe("createUserRequest", () => {
  it("sends the email lowercased and trimmed and the names trimmed", () => {
    expect(
      createUserRequest({ email: "  Ali@Example.COM ", password: " secret ", firstName: " Ali ", lastName: " Veli ", role: "sales" }),
    ).toEqual({ email: "ali@example.com", password: " secret ", first_name: "Ali", last_name: "Veli", role: "sales" });
  });
});

const member: OrganizationUser = {
  id: "0b000000-0000-4000-8000-000000000003",
  email: "satis@demo.test",
  first_name: "Mehmet",
  last_name: "Demir",
  role: "user",
  is_active: true,
  last_login_at: null,
  created_at: "2026-01-01T00:00:00Z",
  failed_login_attempts: 0,
  locked_until: null,
  locked_by_admin: false,
  organization_role: "sales",
  membership_active: true,
  locked: false,
};

describe("userDataChanges", () => {
  it("sends nothing when nothing changed", () => {
    expect(userDataChanges(member, editValuesOf(member))).toEqual({});
  });

  it("sends only the changed fields, normalised", () => {
    const values = { ...editValuesOf(member), firstName: " Mehmet Ali ", email: " SATIS@demo.test ", isActive: false };
    expect(userDataChanges(member, values)).toEqual({ first_name: "Mehmet Ali", is_active: false });
    expect(userDataChanges(member, { ...editValuesOf(member), role: "viewer", email: "yeni@demo.test" })).toEqual({
      role: "viewer",
      email: "yeni@demo.test",
    });
  });

  it("starts from empty names when none are on record and keeps an unknown role as it is", () => {
    const unnamed = { ...member, first_name: null, last_name: null, organization_role: "auditor" };
    expect(editValuesOf(unnamed)).toMatchObject({ firstName: "", lastName: "", role: "auditor" });
    expect(userDataChanges(unnamed, editValuesOf(unnamed))).toEqual({});
    expect(editUserSchema.safeParse(editValuesOf(unnamed)).success).toBe(true);
  });
});

describe("resetPasswordSchema", () => {
  it("asks for at least 6 characters", () => {
    expect(messages(resetPasswordSchema.safeParse({ password: "abc" }))).toEqual({
      password: "passwordRules.tooShort",
    });
    expect(resetPasswordSchema.safeParse({ password: "abcdef" }).success).toBe(true);
  });
});
