import { useMutation, useQueryClient } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { updatedProfileSchema } from "./schemas.ts";

export interface ProfileName {
  firstName: string;
  lastName: string;
}

async function updateMyProfile({ firstName, lastName }: ProfileName) {
  return (await rpc("update_my_profile", { p_first_name: firstName, p_last_name: lastName }, updatedProfileSchema)).user;
}

/** Saves the signed-in user's own name; the sidebar and the greeting then show the new one. */
export function useUpdateMyProfile(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMyProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.currentUserContext(userId) }),
  });
}
