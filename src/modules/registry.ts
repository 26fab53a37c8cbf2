import {
  IconAddressBook,
  IconBuilding,
  IconChecklist,
  IconContract,
  IconFileInvoice,
  IconFiles,
  IconTargetArrow,
  IconTransfer,
  type Icon,
} from "@tabler/icons-react";

/** What a role may be granted in every module: the roles matrix's columns, in order. */
export const moduleActions = ["view", "create", "edit", "delete", "export", "import"] as const;
export type ModuleAction = (typeof moduleActions)[number];

/**
 * A page of the sidebar's sales group: what it is, not how it is drawn (its page components are
 * the app's, src/app/module-pages.ts, typed by this registry). Its title and description are
 * `modules.<key>.*` texts.
 */
export interface SalesPage<Key extends string = string> {
  key: Key;
  /** The list page's path; a module with record pages also has `${path}/:id`. */
  path: string;
  icon: Icon;
  /** Whether each record has a page of its own (`${path}/:id`). */
  recordPages: boolean;
  /**
   * The column of documents that links a document to one of this module's records
   * (private.modules.document_link); none when documents cannot belong to its records.
   */
  documentLink?: string;
}

const moduleList = [
  { key: "customers", path: "/customers", icon: IconBuilding, recordPages: true, documentLink: "customer_id" },
  { key: "contacts", path: "/contacts", icon: IconAddressBook, recordPages: true, documentLink: "contact_id" },
  { key: "deals", path: "/deals", icon: IconTargetArrow, recordPages: true, documentLink: "deal_id" },
  { key: "quotes", path: "/quotes", icon: IconFileInvoice, recordPages: true, documentLink: "quote_id" },
  { key: "contracts", path: "/contracts", icon: IconContract, recordPages: true, documentLink: "contract_id" },
  { key: "documents", path: "/documents", icon: IconFiles, recordPages: true },
  { key: "tasks", path: "/tasks", icon: IconChecklist, recordPages: true },
] as const satisfies readonly SalesPage[];

/** A sales module, as the database's registry (private.modules) names it. */
export type ModuleKey = (typeof moduleList)[number]["key"];

type DocumentLinkEntry = Extract<(typeof moduleList)[number], { documentLink: string }>;

/** A module whose records documents can belong to. */
export type DocumentLinkModule = DocumentLinkEntry["key"];

/** The column of documents that links a document to a record of one of those modules. */
export type DocumentLinkColumn = DocumentLinkEntry["documentLink"];

/**
 * The sales modules (spec §2) in sidebar order: the app's one list of them, mirroring
 * private.modules. The router, the sidebar and home page, the module guard, the roles matrix,
 * the import/export page and the transfer options derive from it; a new module is an entry
 * here, its pages in src/app/module-pages.ts (a type error until they are there) and its
 * feature folder.
 */
export const modules: readonly SalesPage<ModuleKey>[] = moduleList;

/**
 * The page of one record of a module (e.g. /tasks/<id>), or the module's list when it has no
 * record pages or no record is named; null for a module the app does not have.
 */
export function recordPath(module: string | null, id: string | null): string | null {
  const page = modules.find((candidate) => candidate.key === module);
  if (!page) return null;
  return page.recordPages && id ? `${page.path}/${id}` : page.path;
}

/** The import/export page: it works across the modules, so it follows them in the sidebar. */
const importExportPage = {
  key: "importExport",
  path: "/import-export",
  icon: IconTransfer,
  recordPages: false,
} as const satisfies SalesPage<"importExport">;

export type SalesPageKey = ModuleKey | "importExport";

/** A sales page whose records have their own page (`${path}/:id`): every module's. */
export type DetailModuleKey = Extract<(typeof moduleList)[number] | typeof importExportPage, { recordPages: true }>["key"];

/** The sidebar's sales group and the home page's cards: every module, then import/export. */
export const salesPages: readonly SalesPage<SalesPageKey>[] = [...modules, importExportPage];

/**
 * What an admin's record transfer can move (spec §3), in the spec's order: a module's records
 * (contacts go with their customers), or the document templates, which belong to no module.
 */
export const transferKinds = [
  "deals",
  "customers",
  "tasks",
  "contracts",
  "quotes",
  "templates",
] as const satisfies readonly (ModuleKey | "templates")[];
export type TransferKind = (typeof transferKinds)[number];

/** The kinds a transfer starts with (spec §3); the others are chosen by hand. */
export const initialTransferKinds: readonly TransferKind[] = ["deals", "customers", "tasks"];
