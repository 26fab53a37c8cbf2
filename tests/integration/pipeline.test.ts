/**
 * Deals, tasks, notifications and the dashboard through supabase-js on the local stack
 * (issue 12): a deal moved on the board with its history, a stale move refused, an own-scope
 * member refused on another's deal, another organization's admin answered "not found"; a
 * task given to a colleague notifies only them, in their organization; completing it counts
 * on the dashboard.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { createMember } from "../support/accounts.ts";
import { rpc, signedInClient } from "../support/clients.ts";

const url = inject("stackUrl");

type Stage = { key: string; count: number; cards: { id: string }[] };

describe("the pipeline through supabase-js", () => {
  it("moves a deal, keeps its history, refuses a stale move, another's deal for an own-scope member and another organization", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const title = `Entegrasyon fırsatı ${randomUUID().slice(0, 6)}`;
    const created = await rpc(client, "create_deal", { p_values: { title, amount: 48000, currency: "TRY" } });
    expect(created).toMatchObject({ success: true, record: { title, stage: "lead", probability: 10 } });
    const deal = created.record as { id: string; updated_at: string };

    const moved = await rpc(client, "move_deal", { p_id: deal.id, p_stage: "proposal", p_updated_at: deal.updated_at });
    expect(moved).toMatchObject({ success: true, record: { stage: "proposal", probability: 50 } });
    expect(await rpc(client, "move_deal", { p_id: deal.id, p_stage: "won", p_updated_at: deal.updated_at })).toMatchObject({
      success: false,
      code: "stale_record",
    });
    const lostWithoutReason = await rpc(client, "move_deal", {
      p_id: deal.id,
      p_stage: "lost",
      p_updated_at: (moved.record as { updated_at: string }).updated_at,
    });
    expect(lostWithoutReason).toMatchObject({ success: false, code: "invalid_fields", fields: { lost_reason: "required" } });

    const board = await rpc(client, "get_deal_board", { p_filters: { search: title } });
    const proposal = (board.stages as Stage[]).find((stage) => stage.key === "proposal");
    expect(proposal?.cards.map((card) => card.id)).toEqual([deal.id]);
    const history = await rpc(client, "get_deal_stage_history", { p_id: deal.id });
    expect((history.history as { from_stage: string | null; to_stage: string }[]).map((entry) => [entry.from_stage, entry.to_stage])).toEqual([
      [null, "lead"],
      ["lead", "proposal"],
    ]);

    // An own-scope member sees the deal (view all) but may not move it.
    const roleKey = `gor_${randomUUID().slice(0, 6).replace(/[^a-z0-9]/g, "x")}`;
    expect(await rpc(client, "save_role", { p_key: roleKey, p_name: `Gör ${roleKey}`, p_permissions: { deals: { view: "all", edit: "own" } } }))
      .toMatchObject({ success: true });
    const member = await createMember(url, { role: roleKey });
    const { client: memberClient } = await signedInClient(url, member.email, member.password);
    const current = (await rpc(memberClient, "get_deal_details", { p_id: deal.id })).record as { updated_at: string };
    expect(await rpc(memberClient, "move_deal", { p_id: deal.id, p_stage: "won", p_updated_at: current.updated_at })).toMatchObject({
      success: false,
      code: "not_record_owner",
    });

    // Another organization's admin: not found, by any route.
    const { client: acme } = await signedInClient(url, "admin@acme.test");
    expect(await rpc(acme, "get_deal_details", { p_id: deal.id })).toMatchObject({ success: false, code: "not_found" });
    expect(await rpc(acme, "move_deal", { p_id: deal.id, p_stage: "won", p_updated_at: current.updated_at })).toMatchObject({
      success: false,
      code: "not_found",
    });
    expect(await rpc(client, "get_deal_details", { p_id: deal.id })).toMatchObject({ record: { stage: "proposal" } });
    expect(await rpc(client, "delete_deals", { p_ids: [deal.id] })).toMatchObject({ success: true });
  });

  it("notifies the assignee of a task, only in their organization; completing it counts on their dashboard", async () => {
    const { client: admin } = await signedInClient(url, "admin@demo.test");
    const member = await createMember(url, { role: "sales" });
    const { client: assignee, session } = await signedInClient(url, member.email, member.password);
    const before = await rpc(assignee, "get_dashboard");
    expect(before).toMatchObject({ success: true, tasks: { open: 0, overdue: 0 } });

    const title = `Teklifi ara ${randomUUID().slice(0, 6)}`;
    const due = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const created = await rpc(admin, "create_task", { p_values: { title, type: "call", owner_id: session.user.id, due_at: due } });
    expect(created).toMatchObject({ success: true, record: { title, status: "open", owner_id: session.user.id } });
    const task = created.record as { id: string; updated_at: string };

    const inbox = await rpc(assignee, "get_notifications");
    expect(inbox.notifications).toContainEqual(expect.objectContaining({ kind: "task_assigned", module: "tasks", record_id: task.id, title }));
    expect(await rpc(assignee, "get_unread_notification_count")).toMatchObject({ success: true, unread: inbox.unread });
    // The admin who gave it is not notified of their own assignment, nor is anyone in acme.
    const adminInbox = await rpc(admin, "get_notifications", { p_limit: 50 });
    expect((adminInbox.notifications as { record_id: string }[]).some((notification) => notification.record_id === task.id)).toBe(false);
    const { client: acme } = await signedInClient(url, "admin@acme.test");
    const acmeInbox = await rpc(acme, "get_notifications", { p_limit: 50 });
    expect((acmeInbox.notifications as { record_id: string }[]).some((notification) => notification.record_id === task.id)).toBe(false);
    // Marking someone else's notification read changes nothing.
    const mine = (inbox.notifications as { id: string; record_id: string }[]).find((notification) => notification.record_id === task.id)!;
    expect(await rpc(admin, "mark_notifications_read", { p_ids: [mine.id] })).toMatchObject({ success: true, updated: 0 });

    expect(await rpc(assignee, "get_dashboard")).toMatchObject({ tasks: { open: 1, overdue: 1 } });
    expect(await rpc(assignee, "complete_task", { p_id: task.id, p_updated_at: task.updated_at })).toMatchObject({
      success: true,
      record: { status: "done" },
    });
    expect(await rpc(assignee, "get_dashboard")).toMatchObject({ tasks: { open: 0, overdue: 0 } });
    expect(await rpc(admin, "delete_tasks", { p_ids: [task.id] })).toMatchObject({ success: true });
  });
});
