import { queryOptions, useQuery } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { myOrganizationsSchema, type MyOrganizations } from "./organization-schemas.ts";

async function getMyOrganizations(): Promise<MyOrganizations> {
  return rpc("get_my_organizations", {}, myOrganizationsSchema);
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
