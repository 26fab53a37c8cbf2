/** Fresh accounts for tests that change an account's state (lockout, deletion, ...). */
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { anonClient, demoOrganizationId, privilegedRpc, rpc, type RpcAnswer, signedInClient } from "./clients.ts";

export const testPassword = "Test.5678";

/** A super admin creates a fresh member (of the demo organization unless told otherwise). */
export async function createMember(
  url: string,
  { role = "user", organizationId = demoOrganizationId, password = testPassword } = {},
) {
  const { client } = await signedInClient(url, "super@demo.test");
  const email = `user-${randomUUID().slice(0, 8)}@test.example`;
  const created = await privilegedRpc(client, "create_user_secure", {
    p_email: email,
    p_password: password,
    p_organization_id: organizationId,
    p_first_name: "Deniz",
    p_last_name: "Arslan",
    p_role: role,
  });
  expect(created).toMatchObject({ success: true });
  // Local scope: the super admin's other sessions (another test's) stay signed in.
  await client.auth.signOut({ scope: "local" });
  return { email, password, id: (created.user as { id: string }).id };
}

/**
 * Ten wrong passwords for one account at once. The database counts them one after
 * another: four plain refusals, the fifth locks for 30 minutes, the rest meet the lock.
 */
export async function expectTenConcurrentFailuresToLockAtFive(url: string, email: string) {
  const answers: RpcAnswer[] = await Promise.all(
    Array.from({ length: 10 }, (_, attempt) =>
      rpc(anonClient(url), "secure_login_prepare_auth", { p_email: email, p_password: `Wrong.${attempt}` }),
    ),
  );
  const codes = answers.map((answer) => answer.code).sort();
  expect(codes).toEqual([...Array(6).fill("account_locked"), ...Array(4).fill("invalid_credentials")]);
  expect(answers.filter((answer) => answer.error === "Account is locked for 30 minutes")).toHaveLength(6);
  // Even the right password meets the lock now.
  const right = await rpc(anonClient(url), "secure_login_prepare_auth", { p_email: email, p_password: testPassword });
  expect(right).toMatchObject({ success: false, code: "account_locked" });
}
