import { describe, expect, it } from "vitest";
import { currentUserContextSchema } from "./schemas.ts";

const validContext = {
  success: true,
  user: {
    id: "7d1f7e0c-5a43-4b0e-9a57-0f6a2e4d1c11",
    email: "admin@demo.test",
    first_name: "Ayşe",
    last_name: "Yılmaz",
    role: "admin",
  },
  organization: { id: "00000000-0000-0000-0000-000000000001", slug: "demo", name: "Demo Ticaret A.Ş." },
  organizations: [{ id: "00000000-0000-0000-0000-000000000001", slug: "demo", name: "Demo Ticaret A.Ş.", role: "admin" }],
};

describe("currentUserContextSchema", () => {
  it("accepts the RPC's payload", () => {
    expect(currentUserContextSchema.parse(validContext)).toEqual(validContext);
  });

  it("keeps the user's sign-in, terms and per-organization role details", () => {
    const details = {
      is_active: true,
      created_at: "2026-11-21T09:00:00+00:00",
      last_login_at: "2026-11-21T10:00:00+00:00",
      terms_accepted_at: null,
      organization_role: { [validContext.organization.id]: "admin" },
    };
    const payload = { ...validContext, user: { ...validContext.user, ...details } };
    expect(currentUserContextSchema.parse(payload).user).toEqual(payload.user);
  });

  it("accepts a user without an organization or a recorded name", () => {
    const payload = {
      ...validContext,
      user: { ...validContext.user, first_name: null, last_name: null, role: "super_admin" },
      organization: null,
      organizations: [],
    };
    expect(currentUserContextSchema.safeParse(payload).success).toBe(true);
  });

  it.each([
    ["a failure payload", { success: false, error: "Authentication required" }],
    ["a missing user", { ...validContext, user: undefined }],
    ["a user id that is not an id", { ...validContext, user: { ...validContext.user, id: "42" } }],
    ["an organization without a name", { ...validContext, organization: { id: validContext.organization.id, slug: "demo" } }],
    ["organizations without roles", { ...validContext, organizations: [validContext.organization] }],
    ["null", null],
  ])("rejects %s", (_, payload) => {
    expect(currentUserContextSchema.safeParse(payload).success).toBe(false);
  });
});
