import type { Catalogue } from "@/i18n/tr.ts";

/**
 * The actions the database writes to the audit log (private.write_audit and the inserts
 * into private.audit_log in supabase/schemas), as sentences in the user's words. A record
 * module's action is "<module>.<verb>": a verb every module shares (create, update, ...)
 * has one sentence for all of them, a module's own verb (contracts.renew) its own. An
 * admin action ("user.locked") has its own sentence. activity-actions.test.ts reads the
 * SQL and fails when an action has no sentence.
 */

/** The verbs the record engine writes for every module (07_module_engine, 15_import_export). */
export const recordVerbs = [
  "create",
  "update",
  "delete",
  "restore",
  "note",
  "merge",
  "merged_away",
  "export",
  "import",
  "import_revert",
] as const;
export type RecordVerb = (typeof recordVerbs)[number];

/** The groups whose actions are about one of their records (the sales modules and products). */
export const recordGroups = ["customers", "contacts", "deals", "quotes", "contracts", "documents", "tasks", "products"] as const;
export type RecordGroup = (typeof recordGroups)[number];

/** Every action each group writes, in the order the audit log's filter offers them. */
export const actionsByGroup = {
  customers: ["create", "update", "delete", "restore", "note", "merge", "merged_away", "export", "import", "import_revert"],
  contacts: ["create", "update", "delete", "restore", "note", "merge", "merged_away", "data_exported", "erased", "export", "import", "import_revert"],
  deals: ["create", "update", "contacts", "delete", "restore", "note", "export", "import", "import_revert"],
  quotes: ["create", "update", "revise", "delete", "restore", "note", "export"],
  contracts: ["create", "update", "renew", "terminate", "expire", "delete", "restore", "note", "export"],
  documents: ["create", "version", "update", "delete", "restore", "note", "export"],
  tasks: ["create", "update", "delete", "restore", "note", "export", "import", "import_revert"],
  products: ["create", "update", "activate", "deactivate", "import", "import_revert"],
  user: [
    "created",
    "updated",
    "deleted",
    "removed",
    "locked",
    "unlocked",
    "password_reset",
    "password_reset_by_email",
    "password_changed",
    "password_synced",
    "records_transferred",
    "access_refused",
  ],
  organization: ["created", "updated", "tables_provisioned"],
  role: ["saved", "deleted"],
  settings: ["updated", "logo_updated", "logo_removed", "mail"],
  template: ["saved", "deleted"],
  mail_templates: ["updated", "reset"],
  session: ["super_admin_entered", "super_admin_left", "super_admin_switched"],
  mail: ["sent", "failed"],
  custom_fields: ["create", "update", "delete"],
} as const satisfies Record<string, readonly string[]>;
export type ActionGroup = keyof typeof actionsByGroup;

type Sentences = Catalogue["activity"]["sentences"];
type SentenceGroup = keyof Sentences;
/** A sentence's key in the catalogue ("{{actor}} renewed the contract"). */
export type ActivitySentenceKey = { [G in SentenceGroup]: `activity.sentences.${G}.${keyof Sentences[G] & string}` }[SentenceGroup];
/** A short label's key in the catalogue ("Contract renewed"), for the audit log's filter. */
export type ActivityLabelKey = { [G in SentenceGroup]: `activity.labels.${G}.${keyof Sentences[G] & string}` }[SentenceGroup];

/** A module's own verbs, whose sentence is not the shared record one. */
const ownVerbs: Partial<Record<RecordGroup, readonly string[]>> = {
  contacts: ["data_exported", "erased"],
  deals: ["contacts"],
  quotes: ["revise"],
  contracts: ["renew", "terminate", "expire"],
  documents: ["create", "version"],
  products: ["activate", "deactivate"],
};

const adminGroups = ["user", "organization", "role", "settings", "template", "mail_templates", "session", "mail", "custom_fields"] as const;

function isRecordGroup(group: string): group is RecordGroup {
  return (recordGroups as readonly string[]).includes(group);
}

/** Where an action's texts are: [sentence group, verb]; undefined for an action this version does not know. */
function textPath(action: string): [SentenceGroup, string] | undefined {
  const dot = action.indexOf(".");
  if (dot <= 0) return undefined;
  const group = action.slice(0, dot);
  const verb = action.slice(dot + 1);
  if (isRecordGroup(group)) {
    if (ownVerbs[group]?.includes(verb)) return [group as SentenceGroup, verb];
    if ((recordVerbs as readonly string[]).includes(verb)) return ["record", verb];
    return undefined;
  }
  if ((adminGroups as readonly string[]).includes(group) && (actionsByGroup[group as ActionGroup] as readonly string[]).includes(verb)) {
    return [group as SentenceGroup, verb];
  }
  return undefined;
}

/** The catalogue key of an action's sentence; undefined for an unknown action. */
export function activitySentenceKey(action: string): ActivitySentenceKey | undefined {
  const path = textPath(action);
  return path ? (`activity.sentences.${path[0]}.${path[1]}` as ActivitySentenceKey) : undefined;
}

/** The catalogue key of an action's short label; undefined for an unknown action. */
export function activityLabelKey(action: string): ActivityLabelKey | undefined {
  const path = textPath(action);
  return path ? (`activity.labels.${path[0]}.${path[1]}` as ActivityLabelKey) : undefined;
}

type Translate = (key: ActivitySentenceKey | ActivityLabelKey | "activity.unknown" | "activity.unknownLabel", options?: { actor: string }) => string;

/** Who did it, in words: their name, "System" for no one, "Deleted user" for an account that is gone. */
export function activityActorName(
  actor: { id?: string | null; name?: string | null; deleted?: boolean | null },
  t: (key: "activity.system" | "activity.deletedUser") => string,
): string {
  if (actor.name) return actor.name;
  if (!actor.id && !actor.deleted) return t("activity.system");
  return t("activity.deletedUser");
}

/** The sentence of an action done by actor ("Ayşe Yılmaz renewed the contract"); an unknown action never shows its key. */
export function activitySentence(action: string, actor: string, t: Translate): string {
  const key = activitySentenceKey(action);
  return key ? t(key, { actor }) : t("activity.unknown", { actor });
}

/** The short label of an action ("Contract renewed"), for lists and filters. */
export function activityLabel(action: string, t: Translate): string {
  const key = activityLabelKey(action);
  return key ? t(key) : t("activity.unknownLabel");
}

/** Every action the audit log's filter offers, grouped: [group, [action...]]. */
export function filterableActions(): [ActionGroup, string[]][] {
  return (Object.keys(actionsByGroup) as ActionGroup[]).map((group) => [group, actionsByGroup[group].map((verb) => `${group}.${verb}`)]);
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a value that is an id (a uuid): never shown to a person. */
export function looksLikeId(value: unknown): boolean {
  return typeof value === "string" && uuidPattern.test(value);
}
