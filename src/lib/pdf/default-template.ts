/**
 * The organization's default template of a kind, for whoever prints a quote or a contract
 * (get_default_document_template: any member who may view that module). null: none, the
 * PDF uses the built-in body. The key sits under the templates' key, so saving a template
 * in the admin screen refreshes it.
 */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import type { TemplateKind } from "@/lib/document-template/placeholders.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";

const defaultTemplateSchema = z.object({
  success: z.literal(true),
  template: z.looseObject({ id: z.guid(), name: z.string(), body: z.string(), updated_at: z.string() }).nullable(),
});
export type DefaultDocumentTemplate = NonNullable<z.infer<typeof defaultTemplateSchema>["template"]>;

export function defaultTemplateQueryOptions(scope: OrganizationScope, kind: TemplateKind) {
  return queryOptions({
    queryKey: [...queryKeys.organization(scope, "document-templates"), "default", kind],
    queryFn: async () => (await rpc("get_default_document_template", { p_kind: kind }, defaultTemplateSchema)).template,
  });
}
