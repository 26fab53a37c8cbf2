import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import type { TemplateKind } from "@/lib/document-template/placeholders.ts";
import { templateDeletedSchema, templateListSchema, templateSavedSchema, type DocumentTemplate } from "./schemas.ts";

export const templateKeys = {
  all: (scope: OrganizationScope) => queryKeys.organization(scope, "document-templates"),
};

async function listTemplates(): Promise<DocumentTemplate[]> {
  return (await rpc("list_document_templates", {}, templateListSchema)).templates;
}

export function documentTemplatesQueryOptions(scope: OrganizationScope) {
  return queryOptions({ queryKey: [...templateKeys.all(scope), "list"], queryFn: listTemplates });
}

export function useDocumentTemplates(scope: OrganizationScope) {
  return useQuery(documentTemplatesQueryOptions(scope));
}

export interface TemplateInput {
  /** null: a new template. */
  id: string | null;
  kind: TemplateKind;
  name: string;
  body: string;
  isDefault: boolean;
}

async function saveTemplate(input: TemplateInput): Promise<string> {
  const args = {
    // The generated types spell the nullable id as text; null asks for a new template.
    p_id: input.id as string,
    p_kind: input.kind,
    p_name: input.name,
    p_body: input.body,
    p_is_default: input.isDefault,
  };
  return (await rpc("save_document_template", args, templateSavedSchema)).id;
}

async function deleteTemplate(id: string): Promise<void> {
  await rpc("delete_document_template", { p_id: id }, templateDeletedSchema);
}

/** Whatever the outcome, the list is read again (a refusal can mean it is out of date). */
function useRefetchTemplates(scope: OrganizationScope) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: templateKeys.all(scope) });
}

export function useSaveTemplate(scope: OrganizationScope) {
  const refetch = useRefetchTemplates(scope);
  return useMutation({ mutationFn: saveTemplate, onSettled: refetch });
}

export function useDeleteTemplate(scope: OrganizationScope) {
  const refetch = useRefetchTemplates(scope);
  return useMutation({ mutationFn: deleteTemplate, onSettled: refetch });
}
