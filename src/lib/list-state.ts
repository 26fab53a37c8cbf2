/** What every sortable, paged list on screen keeps: the sort column, its direction, the page. */
export interface SortedPage<SortKey extends string> {
  sort: SortKey;
  descending: boolean;
  /** 1-based. */
  page: number;
}

/**
 * A click on a column header: the same column flips the direction, another one sorts by it
 * (dates newest first, text A to Z). Either way the list goes back to its first page.
 */
export function sortedBy<State extends SortedPage<SortKey>, SortKey extends string>(
  state: State,
  column: SortKey,
  isDate: boolean,
): State {
  if (state.sort === column) return { ...state, descending: !state.descending, page: 1 };
  return { ...state, sort: column, descending: isDate, page: 1 };
}

export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The row offset of a 1-based page (anything below 1 is the first page). */
export function pageOffset(page: number, pageSize: number): number {
  return (Math.max(1, Math.floor(page)) - 1) * pageSize;
}
