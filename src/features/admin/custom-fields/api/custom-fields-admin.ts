/**
 * The admin's calls on custom fields (save_custom_field, delete_custom_field,
 * count_custom_field_values). Whatever their outcome, the module's fields are read again
 * (customFieldKeys): every screen of the module derives its fields from that one query.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { customFieldKeys, customFieldSchema, type CustomField } from "@/components/records/custom-fields/custom-fields.ts";
import { rpc } from "@/lib/call-rpc.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import type { Json } from "@/types/database.types.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";

const savedSchema = z.object({ success: z.literal(true), field: customFieldSchema });
const deletedSchema = z.object({ success: z.literal(true) });
const countSchema = z.object({ success: z.literal(true), count: z.number().int().nonnegative(), exact: z.boolean() });

function useRefetchFields(module: ModuleKey) {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: customFieldKeys.module(scope, module) });
}

/** Creates a field (p_field without a key) or changes one (with its key and updated_at). */
export function useSaveCustomField(module: ModuleKey) {
  const refetch = useRefetchFields(module);
  return useMutation({
    mutationFn: async (field: Record<string, Json>): Promise<CustomField> =>
      (await rpc("save_custom_field", { p_module: module, p_field: field }, savedSchema)).field,
    onSettled: refetch,
  });
}

/** Moves a field one place up or down: the two neighbours swap positions (two saves, each of one field). */
export function useSwapCustomFields(module: ModuleKey) {
  const refetch = useRefetchFields(module);
  return useMutation({
    mutationFn: async ([first, second]: readonly [CustomField, CustomField]) => {
      await rpc("save_custom_field", { p_module: module, p_field: { key: first.key, position: second.position } }, savedSchema);
      await rpc("save_custom_field", { p_module: module, p_field: { key: second.key, position: first.position } }, savedSchema);
    },
    onSettled: refetch,
  });
}

export function useDeleteCustomField(module: ModuleKey) {
  const refetch = useRefetchFields(module);
  return useMutation({
    mutationFn: async (key: string) => {
      await rpc("delete_custom_field", { p_module: module, p_key: key }, deletedSchema);
    },
    onSettled: refetch,
  });
}

/** How many live records hold a value of the field (exact up to 10,000), asked when its deletion is confirmed. */
export function useCustomFieldValueCount(module: ModuleKey, key: string | null) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: [...customFieldKeys.module(scope, module), "value-count", key],
    queryFn: () => rpc("count_custom_field_values", { p_module: module, p_key: key ?? "" }, countSchema),
    enabled: key !== null,
    staleTime: 0,
  });
}
