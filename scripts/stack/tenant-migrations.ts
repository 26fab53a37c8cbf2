/**
 * The tenant-migration runner: brings every organization's own tables to the newest
 * template version, one organization per transaction (each query below runs on its own),
 * so one failing organization neither blocks the others nor leaves half a change.
 * Re-running resumes: each organization continues from the version it has reached.
 * Then the spare organization schemas (private.tenant_spares) are brought to the same
 * version, so that an organization created next claims one as new as the template.
 */
export type Query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;

export interface TenantMigrationReport {
  migrated: number;
  /** Spare schemas brought to the newest version. */
  sparesMigrated: number;
  failed: { organizationId: string; error: string }[];
}

export async function migrateAllTenants(query: Query): Promise<TenantMigrationReport> {
  const behind = await query<{ id: string }>("select id from private.organizations_behind_template() as id");
  const report: TenantMigrationReport = { migrated: 0, sparesMigrated: 0, failed: [] };
  for (const { id } of behind) {
    const [{ error }] = await query<{ error: string | null }>("select private.try_migrate_tenant($1) as error", [id]);
    if (error) report.failed.push({ organizationId: id, error });
    else report.migrated += 1;
  }
  // A database whose migrations predate the spares (db:diff's scratch copy of the last release) has none.
  const [{ known }] = await query<{ known: boolean }>("select to_regprocedure('private.migrate_tenant_spares()') is not null as known");
  if (known) {
    const [{ spares }] = await query<{ spares: number }>("select private.migrate_tenant_spares() as spares");
    report.sparesMigrated = spares;
  }
  return report;
}
