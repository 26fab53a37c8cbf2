import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { en } from "@/i18n/en.ts";
import { tr } from "@/i18n/tr.ts";
import {
  actionsByGroup,
  activityActorName,
  activityLabel,
  activityLabelKey,
  activitySentence,
  activitySentenceKey,
  filterableActions,
  looksLikeId,
} from "./activity-actions.ts";

const schemasDir = join(import.meta.dirname, "../../../supabase/schemas");
const schemas = readdirSync(schemasDir)
  .filter((file) => file.endsWith(".sql"))
  .map((file) => readFileSync(join(schemasDir, file), "utf8"))
  .join("\n");

/** The keys the sales modules and the import kinds are registered under. */
const registered = (call: string, parameter: string) =>
  [...schemas.matchAll(new RegExp(`select private\\.${call}\\(\\s*${parameter} => '([a-z_]+)'`, "g"))].map((match) => match[1]!);
const modules = registered("register_module", "p_key");
const importKinds = registered("register_import_kind", "p_kind");

/**
 * Every action the SQL writes to the audit log: each statement that writes it (write_audit,
 * write_user_audit, an insert into private.audit_log, contract_apply's action) up to its
 * ";", its literal actions ('contracts.renew') and its actions made of a module or import
 * kind and a verb (p_module || '.create', kind || '.import').
 */
function writtenActions(): string[] {
  const actions = new Set<string>();
  const writes = /(?:write_audit|write_user_audit|insert into private\.audit_log|contract_apply)\s*\(([\s\S]*?);/g;
  for (const [, statement] of schemas.matchAll(writes)) {
    for (const [, action] of statement!.matchAll(/'([a-z][a-z0-9_]*\.[a-z][a-z0-9_]*)'/g)) actions.add(action!);
    for (const [, verb] of statement!.matchAll(/'\.([a-z][a-z0-9_]*)'/g)) {
      const groups = /kind/.test(statement!) && /import/.test(verb!) ? importKinds : modules;
      for (const group of groups) actions.add(`${group}.${verb}`);
    }
  }
  return [...actions].sort();
}

const lookup = (catalogue: object, key: string) =>
  key.split(".").reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined), catalogue);

describe("every action the database writes has a sentence", () => {
  const actions = writtenActions();

  it("finds the actions in the SQL (modules, import kinds and literal actions)", () => {
    expect(modules).toEqual(expect.arrayContaining(["customers", "contacts", "deals", "tasks", "quotes", "contracts", "documents"]));
    expect(importKinds).toEqual(expect.arrayContaining(["customers", "products"]));
    expect(actions).toEqual(
      expect.arrayContaining([
        "customers.create",
        "tasks.delete",
        "documents.version",
        "contracts.renew",
        "contracts.expire",
        "products.import_revert",
        "user.access_refused",
        "settings.logo_removed",
        "template.saved",
      ]),
    );
    expect(actions.length).toBeGreaterThan(60);
  });

  it.each(writtenActions())("%s has a sentence and a label in Turkish and English", (action) => {
    const sentence = activitySentenceKey(action);
    const label = activityLabelKey(action);
    expect(sentence, action).toBeDefined();
    expect(label, action).toBeDefined();
    for (const catalogue of [tr, en]) {
      expect(lookup(catalogue, sentence!), `${action}: ${sentence}`).toEqual(expect.any(String));
      expect(lookup(catalogue, label!), `${action}: ${label}`).toEqual(expect.any(String));
    }
  });

  it("offers every literal action in the audit log's filter", () => {
    const offered = new Set(filterableActions().flatMap(([, group]) => group));
    const literal = [...schemas.matchAll(/(?:write_audit|write_user_audit|insert into private\.audit_log|contract_apply)\s*\(([\s\S]*?);/g)]
      .flatMap(([, statement]) => [...statement!.matchAll(/'([a-z][a-z0-9_]*\.[a-z][a-z0-9_]*)'/g)].map((match) => match[1]!));
    for (const action of literal) expect(offered.has(action), action).toBe(true);
    for (const [group, verbs] of Object.entries(actionsByGroup)) {
      for (const verb of verbs) expect(activitySentenceKey(`${group}.${verb}`), `${group}.${verb}`).toBeDefined();
    }
  });

  it("knows nothing it was not told, not even inherited names", () => {
    expect(activitySentenceKey("customers.toString")).toBeUndefined();
    expect(activitySentenceKey("toString")).toBeUndefined();
    expect(activitySentenceKey("manual.beta_entry")).toBeUndefined();
    expect(activitySentenceKey("user.constructor")).toBeUndefined();
  });
});

describe("activitySentence", () => {
  const translate = (key: string, options?: { actor: string }) => {
    const text = lookup(tr, key);
    return typeof text === "string" ? text.replace("{{actor}}", options?.actor ?? "") : key;
  };

  it("says what was done in words, with who did it", () => {
    expect(activitySentence("contracts.renew", "Ayşe Yılmaz", translate)).toBe("Ayşe Yılmaz sözleşmeyi yeniledi");
    expect(activitySentence("documents.version", "Ayşe Yılmaz", translate)).toBe("Ayşe Yılmaz yeni bir sürüm oluşturdu");
    expect(activitySentence("customers.update", "Selim Satış", translate)).toBe("Selim Satış kaydı güncelledi");
    expect(activitySentence("tasks.note", "Selim Satış", translate)).toBe("Selim Satış not ekledi");
  });

  it("never shows the key of an action it does not know", () => {
    const sentence = activitySentence("deals.something_new", "Ayşe", translate);
    expect(sentence).toBe("Ayşe bir işlem yaptı");
    expect(sentence).not.toContain("something_new");
    expect(activityLabel("deals.something_new", translate)).toBe("Diğer işlem");
    expect(activityLabel("contracts.terminate", translate)).toBe("Sözleşme feshi");
  });
});

describe("activityActorName", () => {
  const t = (key: string) => key;
  it("names the person, the system, or a deleted account, never an id", () => {
    expect(activityActorName({ id: "x", name: "Ayşe Yılmaz" }, t)).toBe("Ayşe Yılmaz");
    expect(activityActorName({ id: null, name: null }, t)).toBe("activity.system");
    expect(activityActorName({ id: "5f0c6d3e-1111-4222-8333-944455556666", name: null }, t)).toBe("activity.deletedUser");
    expect(activityActorName({ id: null, name: null, deleted: true }, t)).toBe("activity.deletedUser");
  });
});

describe("looksLikeId", () => {
  it("recognises a uuid and nothing else", () => {
    expect(looksLikeId("5f0c6d3e-1111-4222-8333-944455556666")).toBe(true);
    expect(looksLikeId("Işık Yazılım")).toBe(false);
    expect(looksLikeId(42)).toBe(false);
  });
});
