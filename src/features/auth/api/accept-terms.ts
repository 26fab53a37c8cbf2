import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { recordTermsAccepted } from "@/lib/browser-storage.ts";
import { parseRpcResult } from "@/lib/rpc.ts";
import { supabase } from "@/lib/supabase.ts";

/**
 * Accepts the terms: recorded in the database (the first time only) and on this browser for
 * the user's email (spec section 3), which is what the guard checks.
 */
async function acceptTerms(email: string): Promise<void> {
  const { data, error } = await supabase.rpc("accept_terms");
  if (error) throw error;
  parseRpcResult(z.looseObject({ success: z.literal(true) }), data);
  recordTermsAccepted(email);
}

export function useAcceptTerms() {
  return useMutation({ mutationFn: acceptTerms });
}
