/** The records a document can be linked to: at most one, through one nullable column per module. */

/** The modules whose records documents can be linked to, and the column of documents that links them. */
export const documentLinks = {
  customers: "customer_id",
  contacts: "contact_id",
  deals: "deal_id",
  quotes: "quote_id",
  contracts: "contract_id",
} as const;
export type DocumentLinkModule = keyof typeof documentLinks;
export const documentLinkModules = Object.keys(documentLinks) as DocumentLinkModule[];

type LinkColumns = Partial<Record<(typeof documentLinks)[DocumentLinkModule], string | null>>;

/** The record a document is linked to (its module and id), or null for a document of no record. */
export function linkedRecordOf(document: LinkColumns): { module: DocumentLinkModule; id: string } | null {
  for (const module of documentLinkModules) {
    const id = document[documentLinks[module]];
    if (id) return { module, id };
  }
  return null;
}

/**
 * The list filter for documents of a module's records: of one record when given, else of any
 * record of the module (the engine's set filter); no module, no filter.
 */
export function documentLinkFilter(
  module: DocumentLinkModule | "" | null | undefined,
  recordId?: string | null,
): Record<string, string | { is_null: false }> {
  if (!module) return {};
  return { [documentLinks[module]]: recordId ? recordId : { is_null: false } };
}
