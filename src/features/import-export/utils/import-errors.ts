/**
 * Failed import calls, unreadable files and row problems in words: a refusal's code to its
 * message (the app's failureKey mapper), a revert refused because records changed since (with
 * how many), a file the spreadsheet library refused (one message per SheetProblem), and a
 * row's reasons and field problems.
 */
import type { TFunction } from "i18next";
import { failureKey } from "@/lib/errors.ts";
import { RpcError } from "@/lib/rpc.ts";
import { formatCount } from "@/lib/format.ts";
import { formatFileSize } from "@/components/documents/document-files.ts";
import { importLimits, SheetError, type SheetProblem } from "@/lib/spreadsheet/index.ts";
import { labelText, type ImportKindDefinition } from "../kinds.ts";
import type { OutcomeWords } from "./outcomes.ts";
import { cellErrorCodes } from "./prepare-rows.ts";

/** The refusals the import RPCs answer with, each a message of modules.importExport.errors. */
export const importErrorCodes = [
  "permission_denied",
  "invalid_input",
  "not_found",
  "invalid_fields",
  "unknown_kind",
  "invalid_mode",
  "invalid_match_key",
  "invalid_mapping",
  "file_too_large",
  "too_many_rows",
  "batch_too_large",
  "import_not_running",
  "batch_out_of_order",
  "import_not_revertible",
  "import_changed_since",
  "import_revert_conflict",
] as const;

export function importFailureKey(error: unknown) {
  return failureKey(error, "modules.importExport.errors", importErrorCodes);
}

/** A refused revert: how many records changed since, when the server says; else the code's message. */
export function revertFailureMessage(t: TFunction, error: unknown): string {
  if (error instanceof RpcError && error.code === "import_changed_since") {
    const changed = error.details.changed;
    if (typeof changed === "number") return t("modules.importExport.history.changedSince", { count: changed });
  }
  return t(importFailureKey(error));
}

const sheetProblems: readonly SheetProblem[] = [
  "too_large",
  "not_a_table",
  "binary",
  "zip_bomb",
  "too_many_sheets",
  "cell_too_long",
  "too_many_rows",
  "too_many_columns",
  "duplicate_headers",
  "empty",
  "bad_encoding",
  "unreadable",
];

/** The limits a file's messages state, in the interface's language. */
export function limitTexts(language: string | undefined) {
  return {
    size: formatFileSize(importLimits.maxFileBytes, language),
    rows: formatCount(importLimits.maxRows, language),
    columns: formatCount(importLimits.maxColumns, language),
    chars: formatCount(importLimits.maxCellChars, language),
    sheets: formatCount(importLimits.maxSheets, language),
  };
}

/** Why a file could not be read, in words: its SheetProblem's message, or "unreadable" for anything else. */
export function sheetFailureMessage(t: TFunction, error: unknown, language: string | undefined): string {
  const problem = error instanceof SheetError && sheetProblems.includes(error.problem) ? error.problem : "unreadable";
  return t(`modules.importExport.problems.${problem}`, limitTexts(language));
}

/** Field problems with a message of their own (the browser's and the module rules' codes); others read "invalid". */
export const fieldErrorCodes = [
  ...cellErrorCodes,
  "required",
  "invalid",
  "invalid_vkn",
  "invalid_tckn",
  "invalid_email",
  "invalid_phone",
  "invalid_website",
  "invalid_tags",
  "invalid_owner",
  "invalid_type",
  "invalid_stage",
  "after_due",
  "too_long",
  "not_found",
  "ambiguous",
  "owner_not_found",
  "owner_ambiguous",
  "unknown_field",
  "duplicate",
  "permission_denied",
] as const;
type FieldErrorCode = (typeof fieldErrorCodes)[number];

/** Why a whole row was skipped or failed. */
export const rowReasons = ["exists", "not_found", "ambiguous_match", "duplicate_in_file"] as const;
type RowReason = (typeof rowReasons)[number];

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);

/** The words of a row's outcome for this kind: reasons, field problems, and field names for values no column holds. */
export function outcomeWords(t: TFunction, definition: ImportKindDefinition): OutcomeWords {
  return {
    reason: (reason, duplicateOf) =>
      isOneOf<RowReason>(rowReasons, reason)
        ? t(`modules.importExport.reasons.${reason}`, { row: duplicateOf ?? "" })
        : t("modules.importExport.reasons.unknown"),
    cellError: (code) =>
      t(`modules.importExport.cellErrors.${isOneOf<FieldErrorCode>(fieldErrorCodes, code) ? code : "invalid"}`),
    fieldName: (key) => {
      const field = definition.fields.find((candidate) => candidate.key === key);
      return field ? labelText(field.label, t) : t("modules.importExport.preview.rowLevel");
    },
  };
}
