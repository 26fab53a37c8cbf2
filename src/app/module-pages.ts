import { lazyPage, type LazyPage } from "@/lib/lazy-page.ts";
import type { DetailModuleKey, SalesPageKey } from "@/modules/registry.ts";

/** A sales page's components: its list, and its record page when the registry says it has them. */
type SalesPageComponents<Key extends SalesPageKey> = Key extends DetailModuleKey
  ? { list: LazyPage; detail: LazyPage }
  : { list: LazyPage };

/**
 * The page components of every sales page of the registry (src/modules/registry.ts), each
 * loaded on demand. The app composes them with the registry (the router); the registry names no
 * feature. Typed by the registry: a page missing here, or a record page missing or left over,
 * is a type error.
 */
export const modulePages: { readonly [Key in SalesPageKey]: SalesPageComponents<Key> } = {
  customers: {
    list: lazyPage(() => import("@/features/customers/routes/CustomersPage.tsx"), "CustomersPage"),
    detail: lazyPage(() => import("@/features/customers/routes/CustomerDetailPage.tsx"), "CustomerDetailPage"),
  },
  contacts: {
    list: lazyPage(() => import("@/features/contacts/routes/ContactsPage.tsx"), "ContactsPage"),
    detail: lazyPage(() => import("@/features/contacts/routes/ContactDetailPage.tsx"), "ContactDetailPage"),
  },
  deals: {
    list: lazyPage(() => import("@/features/deals/routes/DealsPage.tsx"), "DealsPage"),
    detail: lazyPage(() => import("@/features/deals/routes/DealDetailPage.tsx"), "DealDetailPage"),
  },
  quotes: {
    list: lazyPage(() => import("@/features/quotes/routes/QuotesPage.tsx"), "QuotesPage"),
    detail: lazyPage(() => import("@/features/quotes/routes/QuoteDetailPage.tsx"), "QuoteDetailPage"),
  },
  contracts: {
    list: lazyPage(() => import("@/features/contracts/routes/ContractsPage.tsx"), "ContractsPage"),
    detail: lazyPage(() => import("@/features/contracts/routes/ContractDetailPage.tsx"), "ContractDetailPage"),
  },
  documents: {
    list: lazyPage(() => import("@/features/documents/routes/DocumentsPage.tsx"), "DocumentsPage"),
    detail: lazyPage(() => import("@/features/documents/routes/DocumentDetailPage.tsx"), "DocumentDetailPage"),
  },
  tasks: {
    list: lazyPage(() => import("@/features/tasks/routes/TasksPage.tsx"), "TasksPage"),
    detail: lazyPage(() => import("@/features/tasks/routes/TaskDetailPage.tsx"), "TaskDetailPage"),
  },
  importExport: {
    list: lazyPage(() => import("@/features/import-export/routes/ImportExportPage.tsx"), "ImportExportPage"),
  },
};
