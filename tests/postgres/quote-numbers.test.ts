import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../scripts/stack/test-database.ts";

// Gapless numbering under real concurrency, which pgTAP (one session) cannot show: twenty
// connections each open a transaction as admin@demo.test (as PostgREST would), wait until
// all twenty are open, then create a quote through save_quote at once; four more create
// one and roll back. The committed quotes (dated 2031, a year no seed uses) have twenty
// distinct numbers, exactly 1..20.
describe("document numbers under concurrency", () => {
  let database: TestDatabase;
  let sql: postgres.Sql;
  let organizationId: string;
  let userId: string;
  const sessionId = crypto.randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase({ prefix: "crm_quote_numbers", seed: true });
    sql = postgres(database.url, { max: 24, onnotice: () => {} });
    [{ id: organizationId }] = await sql`select id from private.organizations where slug = 'demo'`;
    [{ id: userId }] = await sql`select id from private.profiles where email = 'admin@demo.test'`;
    await sql`insert into auth.sessions (id, user_id) values (${sessionId}, ${userId})`;
    await sql`insert into private.session_organizations (session_id, user_id, organization_id)
              values (${sessionId}, ${userId}, ${organizationId})`;
  });

  afterAll(async () => {
    await sql?.end();
    await database?.drop();
  });

  it("gives twenty parallel transactions twenty distinct numbers without a gap", async () => {
    const committing = 20;
    const rollingBack = 4;
    let arrived = 0;
    let release!: () => void;
    const allOpen = new Promise<void>((resolve) => (release = resolve));
    const takeNumber = (rollBack: boolean) =>
      sql
        .begin(async (tx) => {
          await tx`select 1`;
          if (++arrived === committing + rollingBack) release();
          await allOpen;
          const claims = JSON.stringify({ sub: userId, role: "authenticated", aud: "authenticated", session_id: sessionId });
          await tx`select set_config('request.jwt.claims', ${claims}, true), set_config('request.jwt.claim.sub', ${userId}, true),
                          set_config('role', 'authenticated', true)`;
          const [{ answer }] = await tx`
            select public.save_quote(null, '{"quote_date": "2031-06-15"}',
                                     '[{"description": "Danışmanlık", "quantity": 1, "unit_price": "100", "vat_rate": 20}]') as answer`;
          if (!answer.success) throw new Error(JSON.stringify(answer));
          const number = answer.quote_number as string;
          // Hold the counter a moment so the others really queue behind it.
          await tx`select pg_sleep(0.01)`;
          if (rollBack) throw new Error("rolled back");
          return number;
        })
        .catch((error: Error) => (error.message === "rolled back" ? null : Promise.reject(error)));

    const results = await Promise.all(
      Array.from({ length: committing + rollingBack }, (_, index) => takeNumber(index % 6 === 5)),
    );
    const numbers = results.filter((number): number is string => number !== null);
    expect(numbers).toHaveLength(committing);
    expect(new Set(numbers).size).toBe(committing);
    expect(numbers.map((number) => Number(number.slice(-5))).sort((a, b) => a - b)).toEqual(
      Array.from({ length: committing }, (_, index) => index + 1),
    );
    const [{ last }] = await sql`
      select last_value::int as last from private.document_counters
       where organization_id = ${organizationId} and kind = 'quote' and year = 2031`;
    expect(last).toBe(committing);
    const [{ schema }] = await sql`select schema_name as schema from private.organizations where id = ${organizationId}`;
    const [{ stored }] = await sql.unsafe(`select count(*)::int as stored from "${schema}".quotes where quote_date = '2031-06-15'`);
    expect(stored).toBe(committing);
  });
});
