import { LoginAttemptsList } from "@/components/LoginAttemptsList.tsx";
import { useLoginAttempts } from "../api/get-login-attempts.ts";

/** The signed-in user's own recent login attempts, newest first (spec §9: 20). */
export function LoginAttemptsTable({ userId, labelledBy }: { userId: string; labelledBy: string }) {
  return <LoginAttemptsList attempts={useLoginAttempts(userId)} labelledBy={labelledBy} />;
}
