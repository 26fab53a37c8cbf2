/** Whether a sidebar entry is the current page (a module stays current on its detail pages). */
export function isCurrentPath(itemPath: string, pathname: string): boolean {
  if (itemPath === "/") return pathname === "/";
  return pathname === itemPath || pathname.startsWith(`${itemPath}/`);
}
