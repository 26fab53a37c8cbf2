/**
 * The app's module registry (src/modules/registry.ts) and the database's (private.modules,
 * read through get_roles) name the same modules and actions in the same order: a module
 * added on one side only fails here.
 */
import { describe, expect, inject, it } from "vitest";
import { moduleActions, modules } from "../../src/modules/registry.ts";
import { rpc, signedInClient } from "../support/clients.ts";

const url = inject("stackUrl");

describe("one module list in the app and the database", () => {
  it("get_roles lists the registry's modules and actions", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const roles = await rpc(client, "get_roles");
    expect(roles.modules).toEqual(modules.map((module) => module.key));
    expect(roles.actions).toEqual([...moduleActions]);
  });
});
