import { invokePublic } from "@/lib/privileged-functions.ts";
import type { Language } from "@/i18n/index.ts";

/**
 * "Şifremi unuttum": asks for a reset link for an e-mail address, in the language the e-mail
 * should be written in. The answer is the same whether or not the address has an account;
 * a refusal (too many requests, no e-mail on this installation) is thrown as an RpcError.
 */
export async function requestPasswordReset(email: string, language: Language): Promise<void> {
  await invokePublic("password-reset", { action: "request", email, language });
}

/** Sets a new password with the token of a reset link; a refusal is thrown as an RpcError. */
export async function completePasswordReset(token: string, password: string): Promise<void> {
  await invokePublic("password-reset", { action: "complete", token, password });
}
