/**
 * "Şifremi unuttum" through the local stack (issue 27 part 5): the anonymous password-reset
 * function (no JWT asked) answers a known and an unknown e-mail alike, mails the link through
 * the stack's mail server to the known one only, refuses a wrong or used link, and its RPCs
 * are closed to the Data API's anonymous and signed-in callers.
 */
import { describe, expect, inject, it } from "vitest";
import type { CaughtMessage } from "../../scripts/stack/mail-catcher.ts";
import { createMember } from "../support/accounts.ts";
import { anonClient, signedInClient } from "../support/clients.ts";
import { invokeFunction } from "../support/functions.ts";
import { testKeys } from "../support/keys.ts";

const url = inject("stackUrl");

const caughtTo = async (address: string): Promise<CaughtMessage[]> => {
  const answer = await fetch(`${url}/_stack/mail`, { headers: { authorization: `Bearer ${testKeys.secretKey}` } });
  return ((await answer.json()) as { messages: CaughtMessage[] }).messages.filter((message) => message.envelope.to.includes(address));
};

describe("password reset by e-mail", () => {
  it("answers a known and an unknown e-mail alike, and mails the link to the known one only", async () => {
    const { email } = await createMember(url);
    const known = await invokeFunction(anonClient(url), "password-reset", { action: "request", email, language: "en" });
    const unknown = await invokeFunction(anonClient(url), "password-reset", { action: "request", email: "nobody-here@test.example" });
    expect(known).toEqual({ status: 200, body: { success: true } });
    expect(unknown).toEqual(known);

    await expect.poll(async () => (await caughtTo(email)).length, { timeout: 10_000 }).toBe(1);
    const [message] = await caughtTo(email);
    expect(message.subject).toBe("Demo Ticaret A.Ş.: reset your password");
    const token = new RegExp(`${url}/reset-password#token=([A-Za-z0-9_-]{43})`).exec(message.text ?? "")?.[1];
    expect(token).toBeDefined();
    expect(await caughtTo("nobody-here@test.example")).toEqual([]);

    // The link works once; a wrong one is refused in words.
    const wrong = await invokeFunction(anonClient(url), "password-reset", { action: "complete", token: "x".repeat(43), password: "Yeni.Sifre-42" });
    expect([wrong.status, wrong.body.code]).toEqual([400, "reset_link_invalid"]);
    const done = await invokeFunction(anonClient(url), "password-reset", { action: "complete", token, password: "Yeni.Sifre-42" });
    expect(done.body.success).toBe(true);
    const again = await invokeFunction(anonClient(url), "password-reset", { action: "complete", token, password: "Yeni.Sifre-43" });
    expect(again.body.code).toBe("reset_link_invalid");
    await signedInClient(url, email, "Yeni.Sifre-42");
  });

  it("keeps its RPCs from the Data API's anonymous and signed-in callers", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    for (const caller of [anonClient(url), client]) {
      const begin = await caller.rpc("password_reset_begin", {
        p_email: "admin@demo.test", p_client_address: "203.0.113.1", p_language: "tr", p_installation_mail: true,
      });
      const complete = await caller.rpc("password_reset_complete", { p_token: "x", p_password: "Yeni.Sifre-42", p_client_address: "203.0.113.1" });
      expect([begin.data, complete.data]).toEqual([null, null]);
      expect(begin.error).not.toBeNull();
      expect(complete.error).not.toBeNull();
    }
    await client.auth.signOut({ scope: "local" });
  });
});
