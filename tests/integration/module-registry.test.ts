/**
 * The app's module registry (src/modules/registry.ts) and the database's (private.modules,
 * written by private.register_module) name the same modules and actions in the same order,
 * the same document links and the same transfer kinds and defaults: a module, a link or a
 * kind added on one side only fails here. The labels the app's catalogues give the fields a
 * module's screens draw themselves are their declarations' (private.module_fields).
 */
import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { initialTransferKinds, moduleActions, modules, transferKinds } from "../../src/modules/registry.ts";
import { createMember } from "../support/accounts.ts";
import { rpc, rpcSuccess, signedInClient } from "../support/clients.ts";
import { invokeFunction, requestToken } from "../support/functions.ts";
import { en as contactsEn } from "../../src/features/contacts/i18n/en.ts";
import { tr as contactsTr } from "../../src/features/contacts/i18n/tr.ts";
import { en as contractsEn } from "../../src/features/contracts/i18n/en.ts";
import { tr as contractsTr } from "../../src/features/contracts/i18n/tr.ts";
import { en as customersEn } from "../../src/features/customers/i18n/en.ts";
import { tr as customersTr } from "../../src/features/customers/i18n/tr.ts";
import { en as dealsEn } from "../../src/features/deals/i18n/en.ts";
import { tr as dealsTr } from "../../src/features/deals/i18n/tr.ts";
import { en as documentsEn } from "../../src/features/documents/i18n/en.ts";
import { tr as documentsTr } from "../../src/features/documents/i18n/tr.ts";
import { en as quotesEn } from "../../src/features/quotes/i18n/en.ts";
import { tr as quotesTr } from "../../src/features/quotes/i18n/tr.ts";
import { en as tasksEn } from "../../src/features/tasks/i18n/en.ts";
import { tr as tasksTr } from "../../src/features/tasks/i18n/tr.ts";
import { consentChannels, contactFields } from "../../src/features/contacts/utils/contact-fields.ts";
import { contractFields } from "../../src/features/contracts/utils/contract-fields.ts";
import { customerFields, customerKinds, customerStatuses } from "../../src/features/customers/utils/customer-fields.ts";
import { dealFields } from "../../src/features/deals/utils/deal-fields.ts";
import { taskFields } from "../../src/features/tasks/utils/task-fields.ts";
import { taskPriorities, taskStatuses } from "../../src/components/tasks/task-fields.ts";
import declaredStandardFields from "../../src/features/import-export/testing/standard-fields.json";

/** The fields each module's own form writes (its own inputs). */
const formFields: Record<string, readonly string[]> = {
  customers: customerFields,
  contacts: contactFields,
  deals: dealFields,
  tasks: taskFields,
  contracts: contractFields,
};
/** Declared fields the forms leave to others: the import's external code, the time a consent was given (the database's). */
const notInForms = ["external_id", "kvkk_consent_at"];

/** Each module's field labels in the app's catalogues (modules.<module>.fields), Turkish and English. */
const catalogueFields: Record<string, { tr: Record<string, string>; en: Record<string, string> }> = {
  customers: { tr: customersTr.modules.customers.fields, en: customersEn.modules.customers.fields },
  contacts: { tr: contactsTr.modules.contacts.fields, en: contactsEn.modules.contacts.fields },
  deals: { tr: dealsTr.modules.deals.fields, en: dealsEn.modules.deals.fields },
  tasks: { tr: tasksTr.modules.tasks.fields, en: tasksEn.modules.tasks.fields },
  quotes: { tr: quotesTr.modules.quotes.fields, en: quotesEn.modules.quotes.fields },
  contracts: { tr: contractsTr.modules.contracts.fields, en: contractsEn.modules.contracts.fields },
  documents: { tr: documentsTr.modules.documents.fields, en: documentsEn.modules.documents.fields },
};

const url = inject("stackUrl");

describe("one module list in the app and the database", () => {
  it("get_roles lists the registry's modules and actions", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const roles = await rpc(client, "get_roles");
    expect(roles.modules).toEqual(modules.map((module) => module.key));
    expect(roles.actions).toEqual([...moduleActions]);
  });

  it("documents link to the records of the modules with a documentLink, by that column", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    for (const module of modules) {
      if (!module.documentLink) {
        const refused = await rpc(client, "list_record_documents", { p_module: module.key, p_record_id: randomUUID() });
        expect(refused, module.key).toMatchObject({ success: false, code: "invalid_input" });
        continue;
      }
      // A record of the demo organization's; a document linked to it by the app's column is among its documents.
      const listed = await rpcSuccess<{ records: { id: string }[] }>(client, `list_${module.key}`, { p_limit: 1 });
      const recordId = listed.records[0]!.id;
      const created = await rpcSuccess<{ record: { id: string } }>(client, "create_document", {
        p_values: { title: `Kayıt bağı ${module.key}`, [module.documentLink]: recordId },
      });
      const ofRecord = await rpcSuccess<{ documents: { id: string }[] }>(client, "list_record_documents", {
        p_module: module.key,
        p_record_id: recordId,
      });
      expect(ofRecord.documents.map((document) => document.id), module.key).toContain(created.record.id);
      await rpcSuccess(client, "delete_documents", { p_ids: [created.record.id] });
    }
  });

  it("the transfer kinds and the kinds a transfer moves by default are the app's", async () => {
    const giver = await createMember(url);
    const taker = await createMember(url);
    const { client } = await signedInClient(url, "admin@demo.test");
    const token = await requestToken(client);
    const analysis = await invokeFunction(client, "admin-transfer", { action: "analyze", user_id: giver.id }, token);
    expect(Object.keys(analysis.body.counts as object).sort()).toEqual([...transferKinds].sort());
    const moved = await invokeFunction(client, "admin-transfer", { action: "transfer", from_user_id: giver.id, to_user_id: taker.id }, token);
    expect([...(moved.body.kinds as string[])].sort()).toEqual([...initialTransferKinds].sort());
  });

  it("the fields a module's screens draw themselves carry their declarations' labels in the catalogues", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    let compared = 0;
    for (const module of modules) {
      const answer = await rpcSuccess<{ standard_fields: { key: string; label_tr: string; label_en: string; own_ui: boolean }[] }>(
        client,
        "list_custom_fields",
        { p_module: module.key },
      );
      const catalogue = catalogueFields[module.key]!;
      expect(catalogue, module.key).toBeDefined();
      for (const field of answer.standard_fields) {
        if (!field.own_ui || !(field.key in catalogue.tr)) continue;
        expect([catalogue.tr[field.key], catalogue.en[field.key]], `${module.key}.${field.key}`).toEqual([field.label_tr, field.label_en]);
        compared += 1;
      }
    }
    // Most fields are compared (a few the catalogues name elsewhere, as external_id in the import's).
    expect(compared).toBeGreaterThan(80);
  });

  it("a module's form writes exactly the fields the declarations say its screens draw themselves", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    for (const [module, written] of Object.entries(formFields)) {
      const answer = await rpcSuccess<{ standard_fields: { key: string; writable: boolean; own_ui: boolean }[] }>(
        client,
        "list_custom_fields",
        { p_module: module },
      );
      const declared = answer.standard_fields.filter((field) => field.writable && field.own_ui).map((field) => field.key);
      expect(written.filter((key) => key !== "owner_id").toSorted(), module).toEqual(
        declared.filter((key) => !notInForms.includes(key)).toSorted(),
      );
    }
  });

  it("the options the app types its choices with are the declarations'", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const optionsOf = async (module: string, key: string) => {
      const answer = await rpcSuccess<{ standard_fields: { key: string; options: { value: string }[] }[] }>(client, "list_custom_fields", {
        p_module: module,
      });
      return answer.standard_fields.find((field) => field.key === key)?.options.map((option) => option.value);
    };
    expect(await optionsOf("customers", "kind")).toEqual([...customerKinds]);
    expect(await optionsOf("customers", "status")).toEqual([...customerStatuses]);
    expect(await optionsOf("contacts", "kvkk_consent_channel")).toEqual([...consentChannels]);
    expect(await optionsOf("tasks", "status")).toEqual([...taskStatuses]);
    expect(await optionsOf("tasks", "priority")).toEqual([...taskPriorities]);
  });

  it("the import's unit tests read the declarations the database answers (src/features/import-export/testing/standard-fields.json)", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    for (const [module, fixture] of Object.entries(declaredStandardFields)) {
      const answer = await rpcSuccess<{ standard_fields: unknown[] }>(client, "list_custom_fields", { p_module: module });
      // When a declaration changes, write the file again from this answer (each module's standard_fields, by module key).
      expect(fixture, module).toEqual(answer.standard_fields);
    }
  });
});

