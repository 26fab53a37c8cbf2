/**
 * Customers and contacts through supabase-js on the local stack (issue 11): the module
 * rules on their fields, Turkish search, a stale write refused, duplicates, merge, the
 * own scope by id, and the timeline.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { createMember } from "../support/accounts.ts";
import { rpc, signedInClient } from "../support/clients.ts";
import { turkishNamesInOrder } from "../support/turkish-names.ts";
import { customerNamesSortedByName } from "../support/turkish-order.ts";

const url = inject("stackUrl");

describe("customers and contacts through supabase-js", () => {
  it("creates a customer with a valid VKN, refuses a bad one on its field, and finds it by Turkish search", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const suffix = randomUUID().slice(0, 6);
    expect(await rpc(client, "create_customer", { p_values: { name: `Işıklı Çözüm ${suffix}`, tax_number: "1234567891" } })).toEqual({
      success: false,
      error: "Invalid fields",
      code: "invalid_fields",
      fields: { tax_number: "invalid_vkn" },
    });
    const created = await rpc(client, "create_customer", {
      p_values: { name: `Işıklı Çözüm ${suffix}`, tax_number: "1234567890", phone: "0212 555 44 33" },
    });
    expect(created).toMatchObject({ success: true, record: { phone: "+902125554433", kind: "company", status: "lead" } });
    const found = await rpc(client, "list_customers", { p_search: `isikli cozum ${suffix}` });
    expect(found).toMatchObject({ success: true, total: 1, total_exact: true });

    // A write from a stale read is refused and changes nothing.
    const record = created.record as { id: string; updated_at: string };
    const fresh = await rpc(client, "update_customer", { p_id: record.id, p_values: { status: "active" }, p_updated_at: record.updated_at });
    expect(fresh).toMatchObject({ success: true, record: { status: "active" } });
    const stale = await rpc(client, "update_customer", { p_id: record.id, p_values: { status: "passive" }, p_updated_at: record.updated_at });
    expect(stale).toMatchObject({ success: false, code: "stale_record", record: { status: "active" } });

    const timeline = await rpc(client, "get_record_timeline", { p_module: "customers", p_id: record.id });
    expect(timeline.entries).toContainEqual(expect.objectContaining({ kind: "change", field: "status", old: "lead", new: "active" }));
  });

  it("sorts customers by name in Turkish order (C before Ç, I before İ), both ways", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const sorted = await customerNamesSortedByName(client);
    expect(sorted.ascending).toEqual(turkishNamesInOrder);
    expect(sorted.descending).toEqual([...turkishNamesInOrder].reverse());
  });

  it("warns of a duplicate, then merges it with its contacts", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const suffix = randomUUID().slice(0, 6);
    const first = await rpc(client, "create_customer", { p_values: { name: `Güneş Enerji ${suffix}`, email: `info-${suffix}@gunes.com.tr` } });
    const duplicates = await rpc(client, "find_customer_duplicates", { p_values: { name: "Başka", email: `INFO-${suffix}@gunes.com.tr` } });
    expect(duplicates.duplicates).toEqual([expect.objectContaining({ id: (first.record as { id: string }).id, reasons: ["email"] })]);

    const second = await rpc(client, "create_customer", { p_values: { name: `Gunes Enerji ${suffix}`, city: "İzmir" } });
    const secondId = (second.record as { id: string }).id;
    const contact = await rpc(client, "create_contact", {
      p_values: { customer_id: secondId, first_name: "Ömer", last_name: "Şen", phones: [{ label: "mobile", value: "05321112233" }] },
    });
    expect(contact).toMatchObject({ success: true, record: { phones: [{ label: "mobile", value: "+905321112233" }] } });

    const firstId = (first.record as { id: string }).id;
    const merged = await rpc(client, "merge_customers", { p_survivor: firstId, p_other: secondId, p_values: { city: "İzmir" } });
    expect(merged).toMatchObject({ success: true, record: { id: firstId, city: "İzmir" } });
    const contacts = await rpc(client, "list_contacts", { p_filters: { customer_id: firstId } });
    expect(contacts).toMatchObject({ total: 1 });
    expect(await rpc(client, "get_customer", { p_id: secondId })).toMatchObject({ success: false, code: "not_found" });
  });

  it("an own-scope member cannot open another's customer for editing, even by id", async () => {
    const { client: admin } = await signedInClient(url, "admin@demo.test");
    const mine = await rpc(admin, "create_customer", { p_values: { name: `Yönetici Müşterisi ${randomUUID().slice(0, 6)}` } });
    const record = mine.record as { id: string; updated_at: string };

    // A role that sees every customer but may change only its own.
    const roleKey = `kendi_${randomUUID().slice(0, 6).replace(/[^a-z0-9]/g, "x")}`;
    expect(
      await rpc(admin, "save_role", {
        p_key: roleKey,
        p_name: `Kendi ${roleKey}`,
        p_permissions: { customers: { view: "all", create: "own", edit: "own", delete: "own" } },
      }),
    ).toMatchObject({ success: true });
    const member = await createMember(url, { role: roleKey });
    const { client } = await signedInClient(url, member.email, member.password);
    expect(await rpc(client, "update_customer", { p_id: record.id, p_values: { name: "Ele Geçti" }, p_updated_at: record.updated_at })).toMatchObject({
      success: false,
      code: "not_record_owner",
    });
    expect(await rpc(client, "delete_customers", { p_ids: [record.id] })).toMatchObject({
      success: false,
      code: "not_record_owner",
      changed: 0,
      skipped: 1,
    });
    // The record is untouched, and the member still creates their own.
    expect(await rpc(client, "get_customer", { p_id: record.id })).toMatchObject({ success: true, record: { name: (mine.record as { name: string }).name } });
    expect(await rpc(client, "create_customer", { p_values: { name: "Kendi Müşterim" } })).toMatchObject({
      success: true,
      record: { owner_id: member.id },
    });
  });
});
