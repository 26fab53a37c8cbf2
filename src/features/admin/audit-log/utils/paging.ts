/** Entries read per page ("load more" reads the next ones, older than the last shown). */
export const AUDIT_LOG_PAGE_SIZE = 50;

/** The id to read the next page before; none once a page came back short. */
export function nextBeforeId(page: readonly { id: number }[]): number | undefined {
  if (page.length < AUDIT_LOG_PAGE_SIZE) return undefined;
  return page[page.length - 1]?.id;
}
