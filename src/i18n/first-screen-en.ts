import { en as app } from "@/app/i18n/en.ts";
import { en as auth } from "@/features/auth/i18n/en.ts";
import { en as components } from "@/components/i18n/en.ts";
import { en as lib } from "@/lib/i18n/en.ts";
import { en as modules } from "@/modules/i18n/en.ts";
import { en as session } from "@/session/i18n/en.ts";
import { mergeCatalogues } from "./merge.ts";

/**
 * The texts of the first screen (the login page, and what renders around it before sign-in:
 * the app's frame, shared components, the session) in English: a few KiB, where the whole
 * catalogue (en.ts) is tens. The whole one loads with the first page after sign-in (index.ts).
 */
export const firstScreen = mergeCatalogues(components, lib, session, modules, app, auth);
