import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../scripts/stack/test-database.ts";

// A job in each organization (private.scheduled_job_command) commits after each
// organization, which pgTAP (one transaction per file) cannot show: here it runs against a
// real PostgreSQL, on its own as pg_cron and the local stack run it.
describe("a scheduled step in each organization, one transaction each", () => {
  let database: TestDatabase;
  let sql: postgres.Sql;
  const warnings: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase({ prefix: "crm_scheduled_steps", seed: true });
    sql = postgres(database.url, { max: 1, onnotice: (notice) => warnings.push(notice.message) });
    // A probe step: records the transaction it ran in, and fails in acme when asked to.
    await sql.unsafe(`
      create table private.probe_runs (organization_id uuid, transaction_id xid8);
      create function private.probe_step(p_organization_id uuid) returns void language plpgsql set search_path = '' as $$
      begin
        insert into private.probe_runs values (p_organization_id, pg_current_xact_id());
        if current_setting('probe.fail', true) = (select slug from private.organizations where id = p_organization_id) then
          raise exception 'probe failure';
        end if;
      end $$;`);
  });

  afterAll(async () => {
    await sql?.end();
    await database?.drop();
  });

  const probeJob = async () => {
    const [{ command }] = await sql<{ command: string }[]>`select private.scheduled_job_command('probe_step', true) as command`;
    return command;
  };

  const runs = async () =>
    await sql<{ slug: string; transaction_id: string }[]>`
      select o.slug, r.transaction_id::text from private.probe_runs r join private.organizations o on o.id = r.organization_id order by o.slug`;

  it("runs the step in every organization, each in a transaction of its own", async () => {
    await sql.unsafe(await probeJob());
    const done = await runs();
    expect(done.map((run) => run.slug)).toEqual(["acme", "demo"]);
    expect(new Set(done.map((run) => run.transaction_id)).size).toBe(2);
  });

  it("goes on past an organization whose step fails, keeping the others' work and naming the one that failed", async () => {
    await sql`delete from private.probe_runs`;
    warnings.length = 0;
    await sql`select set_config('probe.fail', 'acme', false)`;
    await sql.unsafe(await probeJob());
    expect((await runs()).map((run) => run.slug)).toEqual(["demo"]);
    expect(warnings).toEqual(["scheduled step private.probe_step failed in organization acme: probe failure"]);
    await sql`select set_config('probe.fail', '', false)`;
  });

  it("cannot run inside a transaction block, where it could not commit", async () => {
    const command = await probeJob();
    await expect(sql.begin((tx) => tx.unsafe(command))).rejects.toThrow(/invalid transaction termination/);
  });

  it("runs the product's jobs as scheduled: due tasks are announced in each organization", async () => {
    const organizations = await sql<{ id: string; schema_name: string }[]>`select id, schema_name from private.organizations order by slug`;
    for (const organization of organizations) {
      const [owner] = await sql`select user_id from private.memberships where organization_id = ${organization.id} and role = 'admin' limit 1`;
      await sql.unsafe(
        `insert into "${organization.schema_name}".tasks (title, due_at, owner_id, created_by) values ('Zamanlanmış', now() - interval '1 minute', $1, $1)`,
        [owner.user_id],
      );
    }
    const [job] = await sql<{ command: string }[]>`select command from private.scheduled_jobs where name = 'crm-notify-due-items'`;
    await sql.unsafe(job.command);
    const told = await sql`select count(*)::int as n from private.notifications where kind = 'task_overdue' and title = 'Zamanlanmış'`;
    expect(told[0].n).toBe(organizations.length);
  });
});
