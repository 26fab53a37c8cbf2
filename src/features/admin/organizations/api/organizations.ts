import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import { invokePrivileged } from "@/lib/privileged-functions.ts";
import { parseRpcResult } from "@/lib/rpc.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { organizationListSchema, organizationWriteSchema, slugValidationSchema, type ManagedOrganization } from "./schemas.ts";

const functionName = "admin-organizations";

async function listOrganizations(): Promise<ManagedOrganization[]> {
  const data = await invokePrivileged(functionName, { action: "list" });
  return parseRpcResult(organizationListSchema, data).organizations;
}

// Every organization, as the super admin sees it: keyed by the user like their other data.
export function managedOrganizationsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...queryKeys.user(userId), "organization-manager", "organizations"],
    queryFn: listOrganizations,
  });
}

export function useManagedOrganizations(userId: string) {
  return useQuery(managedOrganizationsQueryOptions(userId));
}

/** The database's verdict on a slug's form (not whether it is free). */
async function validateSlug(slug: string): Promise<boolean> {
  return (await rpc("validate_organization_slug", { org_slug: slug }, slugValidationSchema)).valid;
}

export function useSlugValidation(userId: string, slug: string, enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.user(userId), "organization-manager", "slug-validation", slug],
    queryFn: () => validateSlug(slug),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}

export interface NewOrganization {
  slug: string;
  name: string;
  plan: string;
  /** Its first admin, created in the same transaction (role admin); none: no member yet. */
  firstAdmin?: { email: string; password: string; firstName: string; lastName: string };
}

async function createOrganization({ slug, name, plan, firstAdmin }: NewOrganization) {
  const first_admin = firstAdmin && {
    email: firstAdmin.email.trim(),
    password: firstAdmin.password,
    first_name: firstAdmin.firstName.trim(),
    last_name: firstAdmin.lastName.trim(),
  };
  const data = await invokePrivileged(functionName, { action: "create", slug, name, subscription_plan: plan, ...(first_admin ? { first_admin } : {}) });
  return parseRpcResult(organizationWriteSchema, data).organization;
}

export interface OrganizationChanges {
  name?: string;
  subscription_plan?: string;
  subscription_status?: string;
  is_active?: boolean;
}

async function updateOrganization({ organizationId, changes }: { organizationId: string; changes: OrganizationChanges }) {
  const data = await invokePrivileged(functionName, { action: "update", organization_id: organizationId, changes });
  return parseRpcResult(organizationWriteSchema, data).organization;
}

/**
 * After a write: the list again, the super admin's organization choices, and their own
 * context (the sidebar names the organization they work in, which may have been renamed).
 */
function useRefetchAfterWrite(userId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: managedOrganizationsQueryOptions(userId).queryKey }),
      queryClient.invalidateQueries({ queryKey: queryKeys.myOrganizations(userId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.currentUserContext(userId) }),
    ]);
}

export function useCreateOrganization(userId: string) {
  const refetch = useRefetchAfterWrite(userId);
  return useMutation({ mutationFn: createOrganization, onSuccess: refetch });
}

export function useUpdateOrganization(userId: string) {
  const refetch = useRefetchAfterWrite(userId);
  return useMutation({ mutationFn: updateOrganization, onSettled: refetch });
}
