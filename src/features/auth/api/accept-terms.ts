import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import { recordTermsAccepted } from "@/lib/browser-storage.ts";

/**
 * Accepts the terms: recorded in the database (the first time only) and on this browser for
 * the user's email (spec section 3), which is what the guard checks.
 */
async function acceptTerms(email: string): Promise<void> {
  await rpc("accept_terms", {}, z.looseObject({ success: z.literal(true) }));
  recordTermsAccepted(email);
}

export function useAcceptTerms() {
  return useMutation({ mutationFn: acceptTerms });
}
