import type { PermissionScope, Permissions } from "../api/schemas.ts";

/** A cell of the editor: not allowed, the member's own records, or every record. */
export type CellScope = "none" | PermissionScope;
export const cellScopes: readonly CellScope[] = ["none", "own", "all"];

/** module → action → scope, with every module and action present. */
export type Matrix = Record<string, Record<string, CellScope>>;

function isScope(value: unknown): value is PermissionScope {
  return value === "own" || value === "all";
}

/** The full grid for the given modules and actions, filled from a role's permissions. */
export function matrixFromPermissions(modules: readonly string[], actions: readonly string[], permissions: Permissions): Matrix {
  return Object.fromEntries(
    modules.map((module) => [
      module,
      Object.fromEntries(
        actions.map((action) => {
          const scope = permissions[module]?.[action];
          return [action, isScope(scope) ? scope : "none"];
        }),
      ),
    ]),
  );
}

/** The same grid with one scope everywhere (the admin role: "all"). */
export function uniformMatrix(modules: readonly string[], actions: readonly string[], scope: CellScope): Matrix {
  return Object.fromEntries(modules.map((module) => [module, Object.fromEntries(actions.map((action) => [action, scope]))]));
}

/** What save_role expects: allowed cells only; a module with none stays out. */
export function permissionsFromMatrix(matrix: Matrix): Permissions {
  const result: Permissions = {};
  for (const [module, actions] of Object.entries(matrix)) {
    const allowed = Object.entries(actions).filter((entry): entry is [string, PermissionScope] => isScope(entry[1]));
    if (allowed.length > 0) result[module] = Object.fromEntries(allowed);
  }
  return result;
}

/** A copy with one cell changed. */
export function withCell(matrix: Matrix, module: string, action: string, scope: CellScope): Matrix {
  return { ...matrix, [module]: { ...matrix[module], [action]: scope } };
}

/** Whether two grids grant the same. */
export function sameMatrix(a: Matrix, b: Matrix): boolean {
  return JSON.stringify(sortedPermissions(permissionsFromMatrix(a))) === JSON.stringify(sortedPermissions(permissionsFromMatrix(b)));
}

function sortedPermissions(permissions: Permissions): [string, [string, string][]][] {
  return Object.entries(permissions)
    .map(([module, actions]): [string, [string, string][]] => [module, Object.entries(actions).sort(([x], [y]) => x.localeCompare(y))])
    .sort(([x], [y]) => x.localeCompare(y));
}

/** Roles the server keeps: admin cannot change at all; admin and user cannot be removed. */
export function isFixedRole(key: string): boolean {
  return key === "admin";
}
export function isRemovableRole(key: string): boolean {
  return key !== "admin" && key !== "user";
}
