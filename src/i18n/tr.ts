import { tr as activity } from "@/components/activity/i18n/tr.ts";
import { tr as admin } from "@/features/admin/i18n/tr.ts";
import { tr as app } from "@/app/i18n/tr.ts";
import { tr as auth } from "@/features/auth/i18n/tr.ts";
import { tr as components } from "@/components/i18n/tr.ts";
import { tr as contacts } from "@/features/contacts/i18n/tr.ts";
import { tr as customFields } from "@/components/records/custom-fields/i18n/tr.ts";
import { tr as contracts } from "@/features/contracts/i18n/tr.ts";
import { tr as customers } from "@/features/customers/i18n/tr.ts";
import { tr as deals } from "@/features/deals/i18n/tr.ts";
import { tr as documentKit } from "@/components/documents/i18n/tr.ts";
import { tr as documents } from "@/features/documents/i18n/tr.ts";
import { tr as home } from "@/features/home/i18n/tr.ts";
import { tr as importExport } from "@/features/import-export/i18n/tr.ts";
import { tr as lib } from "@/lib/i18n/tr.ts";
import { tr as modules } from "@/modules/i18n/tr.ts";
import { tr as notifications } from "@/features/notifications/i18n/tr.ts";
import { tr as profile } from "@/features/profile/i18n/tr.ts";
import { tr as quotes } from "@/features/quotes/i18n/tr.ts";
import { tr as search } from "@/features/search/i18n/tr.ts";
import { tr as session } from "@/session/i18n/tr.ts";
import { tr as tasks } from "@/features/tasks/i18n/tr.ts";
import { tr as taskKit } from "@/components/tasks/i18n/tr.ts";
import { mergeCatalogues } from "./merge.ts";

/**
 * The Turkish catalogue: every folder's Turkish texts in one tree. Turkish is the default
 * language, and this catalogue's shape is the type every key is checked against.
 */
export const tr = mergeCatalogues(
  components,
  activity,
  taskKit,
  documentKit,
  customFields,
  lib,
  session,
  modules,
  app,
  auth,
  home,
  profile,
  admin,
  customers,
  contacts,
  deals,
  quotes,
  contracts,
  documents,
  tasks,
  notifications,
  importExport,
  search,
);

export type Catalogue = typeof tr;
