/**
 * The import kinds as the app derives them, for unit tests: the standard fields are the
 * database's own declarations (standard-fields.json, what list_custom_fields answers as
 * standard_fields; tests/integration/module-registry.test.ts fails when they differ and says
 * how to write the file again), the custom ones the test's.
 */
import type { CustomField, ModuleDeclarations } from "@/components/records/custom-fields/custom-fields.ts";
import { importDefinition } from "../declared-import-fields.ts";
import type { ImportKind, ImportKindDefinition } from "../kinds.ts";
import standardFields from "./standard-fields.json";

export const declaredStandardFields = standardFields as unknown as Record<"customers" | "contacts" | "deals" | "tasks", ModuleDeclarations["standard"]>;

/** A kind with its declared fields (and the given custom ones), labels in the given language. */
export function declaredKind(kind: ImportKind, custom: readonly CustomField[] = [], language = "tr"): ImportKindDefinition {
  return importDefinition(kind, kind === "products" ? undefined : { standard: declaredStandardFields[kind], custom }, language);
}
