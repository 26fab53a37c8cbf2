/**
 * The app's module registry (src/modules/registry.ts) and the database's (private.modules,
 * written by private.register_module) name the same modules and actions in the same order,
 * the same document links and the same transfer kinds and defaults: a module, a link or a
 * kind added on one side only fails here.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { initialTransferKinds, moduleActions, modules, transferKinds } from "../../src/modules/registry.ts";
import { createMember } from "../support/accounts.ts";
import { rpc, rpcSuccess, signedInClient } from "../support/clients.ts";
import { invokeFunction, requestToken } from "../support/functions.ts";

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
});
