import { en as activity } from "@/components/activity/i18n/en.ts";
import { en as admin } from "@/features/admin/i18n/en.ts";
import { en as app } from "@/app/i18n/en.ts";
import { en as auth } from "@/features/auth/i18n/en.ts";
import { en as components } from "@/components/i18n/en.ts";
import { en as contacts } from "@/features/contacts/i18n/en.ts";
import { en as customFields } from "@/components/records/custom-fields/i18n/en.ts";
import { en as contracts } from "@/features/contracts/i18n/en.ts";
import { en as customers } from "@/features/customers/i18n/en.ts";
import { en as deals } from "@/features/deals/i18n/en.ts";
import { en as documentKit } from "@/components/documents/i18n/en.ts";
import { en as documents } from "@/features/documents/i18n/en.ts";
import { en as home } from "@/features/home/i18n/en.ts";
import { en as importExport } from "@/features/import-export/i18n/en.ts";
import { en as lib } from "@/lib/i18n/en.ts";
import { en as modules } from "@/modules/i18n/en.ts";
import { en as notifications } from "@/features/notifications/i18n/en.ts";
import { en as profile } from "@/features/profile/i18n/en.ts";
import { en as quotes } from "@/features/quotes/i18n/en.ts";
import { en as search } from "@/features/search/i18n/en.ts";
import { en as session } from "@/session/i18n/en.ts";
import { en as tasks } from "@/features/tasks/i18n/en.ts";
import { en as taskKit } from "@/components/tasks/i18n/en.ts";
import { mergeCatalogues } from "./merge.ts";
import type { Catalogue } from "./tr.ts";

/** The English catalogue: every folder's English texts in one tree (each typed against its Turkish part). */
export const en: Catalogue = mergeCatalogues(
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
