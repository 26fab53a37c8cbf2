/**
 * What the signed-in user may do to one record of a module, from their permissions
 * (get_my_permissions: {action: "own" | "all"}) and the record's owner: the shared record kit
 * (detail actions, bulk bar) hides what the role never allows and disables, with the reason,
 * what it allows only on one's own records. The database decides on every call anyway
 * (not_record_owner); this only spares the user a refusal.
 */
export type RecordAction = "edit" | "delete";

/** allowed; not_owner: the role allows it on one's own records only and this one is another's; denied: never. */
export type RecordAccess = "allowed" | "not_owner" | "denied";

export function recordAccess(
  permissions: Readonly<Partial<Record<string, "own" | "all">>> | undefined,
  action: RecordAction,
  ownerId: string,
  userId: string,
): RecordAccess {
  const scope = permissions?.[action];
  if (scope === undefined) return "denied";
  return scope === "all" || ownerId === userId ? "allowed" : "not_owner";
}

/** How many of the owners given the action is allowed on, and how many are another member's. */
export function splitByAccess(
  permissions: Readonly<Partial<Record<string, "own" | "all">>> | undefined,
  action: RecordAction,
  ownerIds: readonly string[],
  userId: string,
): { allowed: number; notOwner: number } {
  let allowed = 0;
  let notOwner = 0;
  for (const ownerId of ownerIds) {
    const access = recordAccess(permissions, action, ownerId, userId);
    if (access === "allowed") allowed += 1;
    else if (access === "not_owner") notOwner += 1;
  }
  return { allowed, notOwner };
}
