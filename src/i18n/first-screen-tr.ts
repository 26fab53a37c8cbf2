import { tr as app } from "@/app/i18n/tr.ts";
import { tr as auth } from "@/features/auth/i18n/tr.ts";
import { tr as components } from "@/components/i18n/tr.ts";
import { tr as lib } from "@/lib/i18n/tr.ts";
import { tr as modules } from "@/modules/i18n/tr.ts";
import { tr as session } from "@/session/i18n/tr.ts";
import { mergeCatalogues } from "./merge.ts";

/**
 * The texts of the first screen (the login page, and what renders around it before sign-in:
 * the app's frame, shared components, the session) in Turkish: a few KiB, where the whole
 * catalogue (tr.ts) is tens. The whole one loads with the first page after sign-in (index.ts).
 */
export const firstScreen = mergeCatalogues(components, lib, session, modules, app, auth);
