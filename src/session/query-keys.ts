/**
 * Who is asking and for which organization: the start of every organization-scoped query key
 * (useOrganizationScope in organization-scope.ts gives the signed-in session's).
 */
export interface OrganizationScope {
  sessionUserId: string;
  /** The organization the session works in ("none" before the context is known). */
  organizationId: string;
}

/**
 * The app's query keys. Every key starts with the signed-in user's id, so signing in again,
 * binding the session or switching organization drops all of it at once (`queryKeys.user`);
 * data of the session's organization then names that organization, so one organization's
 * rows never answer for another's.
 */
export const queryKeys = {
  /** Everything cached for this signed-in user. */
  user: (userId: string) => ["users", userId] as const,
  currentUserContext: (userId: string) => [...queryKeys.user(userId), "current-user-context"] as const,
  /** The organizations the user may work in (asked before the session has one). */
  myOrganizations: (userId: string) => [...queryKeys.user(userId), "my-organizations"] as const,
  organizationLogo: (userId: string) => [...queryKeys.user(userId), "organization-logo"] as const,
  modulePermissions: (userId: string) => [...queryKeys.user(userId), "module-permissions"] as const,
  /** One area's data (a screen or a module) in the session's organization. */
  organization: (scope: OrganizationScope, area: string) =>
    [...queryKeys.user(scope.sessionUserId), area, scope.organizationId] as const,
};
