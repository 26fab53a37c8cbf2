import { z } from "zod";

export const organizationTableSchema = z.looseObject({
  name: z.string().min(1),
  row_count: z.number(),
  total_bytes: z.number(),
});

export type OrganizationTable = z.infer<typeof organizationTableSchema>;

/** Answer of `get_organization_tables`: the organization's own tables and where its template stands. */
export const organizationTablesSchema = z.looseObject({
  success: z.literal(true),
  schema_name: z.string().nullable(),
  provisioned: z.boolean(),
  template_version: z.number(),
  latest_template_version: z.number(),
  last_migrated_at: z.string().nullable(),
  last_migration_error: z.string().nullable(),
  needs_provisioning: z.boolean(),
  tables: z.array(organizationTableSchema),
});

export type OrganizationTables = z.infer<typeof organizationTablesSchema>;

/** Answer of `create_organization_tables`. */
export const provisionedTablesSchema = z.looseObject({
  success: z.literal(true),
  template_version: z.number(),
  tables: z.array(z.string()).nullable(),
});
