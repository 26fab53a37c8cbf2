import { useMutation, useQueryClient } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { updatedProfileSchema } from "./schemas.ts";

export interface ProfileDetails {
  firstName: string;
  lastName: string;
  /** As typed; '' clears it. The database keeps it in E.164 or refuses it (invalid_phone). */
  phone: string;
}

async function updateMyProfile({ firstName, lastName, phone }: ProfileDetails) {
  return (await rpc("update_my_profile", { p_first_name: firstName, p_last_name: lastName, p_phone: phone }, updatedProfileSchema)).user;
}

/** Saves the signed-in user's own name and phone; the sidebar, the greeting and their e-mails then show the new ones. */
export function useUpdateMyProfile(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMyProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.currentUserContext(userId) }),
  });
}
