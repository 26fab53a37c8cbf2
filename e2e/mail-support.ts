import { expect, type Page } from "@playwright/test";
import type { CaughtMessage } from "../scripts/stack/mail-catcher.ts";
import { testKeys } from "../tests/support/keys.ts";

/** The messages the stack's mail server kept for an address (GET /_stack/mail with the secret key). */
export async function caughtFor(page: Page, address: string): Promise<CaughtMessage[]> {
  const answer = await page.request.get("/_stack/mail", { headers: { authorization: `Bearer ${testKeys.secretKey}` } });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { messages: CaughtMessage[] }).messages.filter((message) => message.envelope.to.includes(address));
}
