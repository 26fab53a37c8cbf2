/**
 * Which file column goes to which field: the automatic match of headers to fields (folded,
 * against each field's label in the interface's language, its other labels and its Turkish
 * and English aliases), a saved mapping applied to a file, and what keeps a mapping from
 * being used (a required field missing, a field mapped twice, two fields that write the same
 * values).
 */
import { foldHeader } from "@/lib/spreadsheet/index.ts";
import { conflictsOf, findField, matchKeyFields, type FieldLabel, type ImportKindDefinition, type ImportMode, type MatchKey } from "../kinds.ts";

/** header → field key; a column left out is not imported. Stored as is with the import and in saved mappings. */
export type Mapping = Record<string, string>;

/** A field's label (or other catalogue text) in the interface's language. */
export type LabelOf = (label: FieldLabel) => string;

/** Every folded name a header may have, and the field it names (the first field to claim a name keeps it). */
export function headerNames(definition: ImportKindDefinition, labelOf: LabelOf): Map<string, string> {
  const names = new Map<string, string>();
  for (const field of definition.fields) {
    const texts = [labelOf(field.label), ...(field.labelAliases ?? []).map(labelOf), ...field.aliases, field.key];
    for (const text of texts) {
      const folded = foldHeader(text);
      if (folded !== "" && !names.has(folded)) names.set(folded, field.key);
    }
  }
  return names;
}

/** Whether a field may join the mapped ones (not mapped yet, no conflict with a mapped one). */
function fits(definition: ImportKindDefinition, used: ReadonlySet<string>, key: string): boolean {
  const field = findField(definition, key);
  return field !== undefined && !used.has(key) && !conflictsOf(definition, key).some((other) => used.has(other));
}

/** Each header to the field its name matches, left to right; a field goes to its first column only. */
export function autoMatch(headers: readonly string[], definition: ImportKindDefinition, labelOf: LabelOf): Mapping {
  const names = headerNames(definition, labelOf);
  const used = new Set<string>();
  const mapping: Mapping = {};
  for (const header of headers) {
    const key = names.get(foldHeader(header));
    if (key !== undefined && fits(definition, used, key)) {
      mapping[header] = key;
      used.add(key);
    }
  }
  return mapping;
}

/**
 * A saved mapping on this file's headers: a header the mapping names exactly, or folded the
 * same ("Vergi No" for "VERGİ NO"); fields the kind no longer has are left out.
 */
export function applySavedMapping(headers: readonly string[], saved: Mapping, definition: ImportKindDefinition): Mapping {
  const byFolded = new Map(Object.entries(saved).map(([header, key]) => [foldHeader(header), key]));
  const used = new Set<string>();
  const mapping: Mapping = {};
  for (const header of headers) {
    const key = Object.hasOwn(saved, header) ? saved[header] : byFolded.get(foldHeader(header));
    if (key !== undefined && fits(definition, used, key)) {
      mapping[header] = key;
      used.add(key);
    }
  }
  return mapping;
}

export type MappingProblem =
  | { type: "nothing_mapped" }
  /** A new record needs one of these fields, and none is mapped. */
  | { type: "missing"; fields: readonly string[] }
  | { type: "duplicate"; field: string; headers: string[] }
  | { type: "conflict"; field: string; other: string };

/** What keeps the mapping from being used; empty when it can go on. */
export function mappingProblems(definition: ImportKindDefinition, mapping: Mapping): MappingProblem[] {
  const headersOf = new Map<string, string[]>();
  for (const [header, key] of Object.entries(mapping)) headersOf.set(key, [...(headersOf.get(key) ?? []), header]);
  if (headersOf.size === 0) return [{ type: "nothing_mapped" }];

  const problems: MappingProblem[] = [];
  for (const group of definition.required) {
    if (!group.some((key) => headersOf.has(key))) problems.push({ type: "missing", fields: group });
  }
  for (const [field, headers] of headersOf) {
    if (headers.length > 1) problems.push({ type: "duplicate", field, headers });
  }
  for (const field of definition.fields) {
    if (!headersOf.has(field.key)) continue;
    for (const other of conflictsOf(definition, field.key)) {
      // Told once per pair, from the field listed first.
      const otherIndex = definition.fields.findIndex((candidate) => candidate.key === other);
      if (headersOf.has(other) && otherIndex > definition.fields.indexOf(field)) problems.push({ type: "conflict", field: field.key, other });
    }
  }
  return problems;
}

/** The match keys the mapped columns can serve. */
export function usableMatchKeys(definition: ImportKindDefinition, mapping: Mapping): MatchKey[] {
  const mapped = new Set(Object.values(mapping));
  return definition.matchKeys.filter((key) => matchKeyFields(definition, key).some((field) => mapped.has(field)));
}


/**
 * The settings the preview starts with: a file with record ids (an export) updates by id;
 * any other creates, skipping rows that match an existing record on the first key the file
 * has (ids aside), or on none.
 */
export function defaultSettings(definition: ImportKindDefinition, mapping: Mapping): { mode: ImportMode; matchKey: MatchKey | null } {
  const usable = usableMatchKeys(definition, mapping);
  if (usable.includes("id")) return { mode: "update", matchKey: "id" };
  return { mode: "create", matchKey: usable[0] ?? null };
}
