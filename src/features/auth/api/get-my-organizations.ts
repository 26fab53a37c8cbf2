import { queryOptions, useQuery } from "@tanstack/react-query";
import { parseRpcResult } from "@/lib/rpc.ts";
import { supabase } from "@/lib/supabase.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { myOrganizationsSchema, type MyOrganizations } from "./organization-schemas.ts";

async function getMyOrganizations(): Promise<MyOrganizations> {
  const { data, error } = await supabase.rpc("get_my_organizations");
  if (error) throw error;
  return parseRpcResult(myOrganizationsSchema, data);
}

// Asked before the session has an organization, so the key starts with the user's id
// (as the current user context's does).
export function myOrganizationsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: queryKeys.myOrganizations(userId),
    queryFn: getMyOrganizations,
  });
}

export function useMyOrganizations(userId: string) {
  return useQuery(myOrganizationsQueryOptions(userId));
}
