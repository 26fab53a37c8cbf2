/**
 * The records a document can be linked to: at most one, through one nullable column per
 * module, as the module registry names it (documentLink, the database's document_link).
 */
import { modules, type DocumentLinkColumn, type DocumentLinkModule } from "@/modules/registry.ts";

export type { DocumentLinkModule };

/** The modules whose records documents can be linked to, in sidebar order, and the column of documents that links each. */
export const documentLinks = Object.fromEntries(
  modules.flatMap((module) => (module.documentLink ? [[module.key, module.documentLink]] : [])),
) as Readonly<Record<DocumentLinkModule, DocumentLinkColumn>>;
export const documentLinkModules = Object.keys(documentLinks) as DocumentLinkModule[];

type LinkColumns = Partial<Record<DocumentLinkColumn, string | null>>;

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
