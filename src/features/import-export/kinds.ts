/**
 * What can be imported (contract: private.import_kinds on the server): the five kinds, the
 * permission each needs, the keys an import can match existing records on, what a new record
 * needs, and the fields only importing has (a record's id, its owner by name, a contact's full
 * name and channels). A module's kind takes every other field from the module's declarations
 * (importDefinition in declared-import-fields.ts: private.module_fields with the header names
 * a file may use, and the organization's custom fields); products, the quote module's
 * catalogue and no module of their own, are declared here whole.
 */
import type { ParseKeys, TFunction } from "i18next";
import type { MyPermissions } from "@/modules/permissions.ts";
import type { ModuleKey } from "@/modules/registry.ts";

export const importKinds = ["customers", "contacts", "deals", "tasks", "products"] as const;
export type ImportKind = (typeof importKinds)[number];

/** create: new records only; upsert: new ones and updates of matched ones; update: matched ones only. */
export const importModes = ["create", "upsert", "update"] as const;
export type ImportMode = (typeof importModes)[number];

export const matchKeys = ["id", "external_id", "tax_number", "email", "name", "title"] as const;
export type MatchKey = (typeof matchKeys)[number];

/**
 * How a cell is read: text as written (trimmed); number and money from Turkish or English
 * notation; date to YYYY-MM-DD; datetime to an instant (on the organization's clock);
 * boolean from yes/no words; enum from an option's key, label or alias; tags split on , and ;
 * reference: a name, code or id the server resolves within the organization; options: several
 * options split on , and ; (a multi choice custom field).
 */
export type FieldType = "text" | "number" | "money" | "date" | "datetime" | "boolean" | "enum" | "options" | "tags" | "reference";

/** A label: a catalogue key, or an organization's own words (a custom field's or its option's label in the interface's language). */
export type FieldLabel = ParseKeys | { text: string };

/** A label as the interface shows it. */
export function labelText(label: FieldLabel, t: TFunction): string {
  return typeof label === "string" ? t(label) : label.text;
}

export interface EnumOption {
  key: string;
  label: FieldLabel;
  /** Other words a file may use for it (Turkish and English). */
  aliases: readonly string[];
}

export interface ImportField {
  /** The value key the server takes (contract: the module's writable columns, external_id, owner, references). */
  key: string;
  label: FieldLabel;
  /** Other catalogue texts a header may be, e.g. the list column's title an export writes. */
  labelAliases?: readonly ParseKeys[];
  type: FieldType;
  /** Header names a file may use, Turkish and English (matched folded: case, Turkish letters, spaces and punctuation aside). */
  aliases: readonly string[];
  options?: readonly EnumOption[];
  /** The organization extends the list (task types): a value outside it goes as written and the server checks it. */
  openOptions?: boolean;
  /** Yes / no words besides the usual ones (e.g. "Etkin" / "Pasif"). */
  booleanWords?: { yes: readonly string[]; no: readonly string[] };
  /** The value keys a cell writes when not its own key: a full name writes first_name and last_name. */
  writes?: readonly string[];
  /** Fields that cannot be mapped beside this one (they write the same values). */
  conflicts?: readonly string[];
}

export interface ImportKindDefinition {
  kind: ImportKind;
  /** The module whose import permission allows it. */
  module: ModuleKey;
  /** The permission must have scope all (products: the organization's catalogue). */
  requiresScopeAll: boolean;
  label: ParseKeys;
  /** Its fields: for a module's kind, those only importing has until importDefinition adds the declared ones. */
  fields: readonly ImportField[];
  /** Declared choices whose options the organization extends (task types): a value outside them goes as written and the server checks it. */
  openOptions?: readonly string[];
  /** What a new record needs: each group is satisfied by one of its fields. */
  required: readonly (readonly string[])[];
  matchKeys: readonly MatchKey[];
}

// ---------------------------------------------------------------------------------
// Fields only importing has
// ---------------------------------------------------------------------------------

export const idField: ImportField = {
  key: "id",
  label: "modules.importExport.fields.id",
  type: "text",
  aliases: ["ID", "Kayıt ID", "Kayıt Kimliği", "Kayıt No", "Record ID", "UUID"],
};

/** The record's owner, named by the member's name or e-mail (every module's kind; last). */
export const ownerField = (label: ParseKeys): ImportField => ({
  key: "owner",
  label,
  labelAliases: ["records.list.owner"],
  type: "reference",
  aliases: ["Sahip", "Sahibi", "Kayıt Sahibi", "Sorumlu", "Temsilci", "Satış Temsilcisi", "Müşteri Temsilcisi", "Owner", "Assignee", "Assigned to", "Sales rep"],
});

// ---------------------------------------------------------------------------------
// The kinds
// ---------------------------------------------------------------------------------

const customers: ImportKindDefinition = {
  kind: "customers",
  module: "customers",
  requiresScopeAll: false,
  label: "modules.importExport.kinds.customers",
  required: [["name"]],
  matchKeys: ["id", "external_id", "tax_number", "email", "name"],
  fields: [ownerField("modules.customers.fields.owner_id")],
};

/** A contact's name may come whole or in two columns; its e-mail and phones become its first channels. */
const contacts: ImportKindDefinition = {
  kind: "contacts",
  module: "contacts",
  requiresScopeAll: false,
  label: "modules.importExport.kinds.contacts",
  required: [["first_name", "last_name", "full_name"]],
  matchKeys: ["id", "external_id", "email", "name"],
  fields: [
    {
      key: "full_name",
      label: "modules.importExport.fields.full_name",
      labelAliases: ["modules.contacts.list.name"],
      type: "text",
      aliases: ["Ad Soyad", "Adı Soyadı", "İsim Soyisim", "Kişi", "Kişi Adı", "Full name", "Name", "Contact", "Contact name"],
      writes: ["first_name", "last_name"],
      conflicts: ["first_name", "last_name"],
    },
    {
      key: "email",
      label: "modules.importExport.fields.email",
      labelAliases: ["modules.contacts.list.email"],
      type: "text",
      aliases: ["E-posta", "E-posta Adresi", "Mail", "E-mail", "Email", "Email address"],
    },
    {
      key: "phone",
      label: "modules.importExport.fields.phone",
      labelAliases: ["modules.contacts.list.phone"],
      type: "text",
      aliases: ["Telefon", "Tel", "Telefon No", "İş Telefonu", "Phone", "Work phone", "Telephone"],
    },
    {
      key: "mobile_phone",
      label: "modules.importExport.fields.mobile_phone",
      type: "text",
      aliases: ["Cep", "Cep Telefonu", "Cep Tel", "GSM", "Mobil", "Mobile", "Mobile phone", "Cell phone"],
    },
    ownerField("modules.contacts.fields.owner_id"),
  ],
};

const deals: ImportKindDefinition = {
  kind: "deals",
  module: "deals",
  requiresScopeAll: false,
  label: "modules.importExport.kinds.deals",
  required: [["title"]],
  matchKeys: ["id", "external_id", "title"],
  fields: [ownerField("modules.deals.fields.owner_id")],
};

const tasks: ImportKindDefinition = {
  kind: "tasks",
  module: "tasks",
  requiresScopeAll: false,
  label: "modules.importExport.kinds.tasks",
  required: [["title"]],
  matchKeys: ["id", "external_id", "title"],
  openOptions: ["type"],
  fields: [ownerField("modules.tasks.fields.owner_id")],
};

const products: ImportKindDefinition = {
  kind: "products",
  module: "quotes",
  requiresScopeAll: true,
  label: "modules.importExport.kinds.products",
  required: [["name"]],
  matchKeys: ["id", "external_id", "name"],
  fields: [
    idField,
    {
      key: "external_id",
      label: "modules.importExport.fields.external_id",
      type: "text",
      aliases: ["Harici Kod", "Harici ID", "Harici No", "Dış Kod", "Dış ID", "Dış Kimlik", "Kod", "External ID", "External code", "Code", "Ürün Kodu", "Stok Kodu", "SKU", "Product code"],
    },
    {
      key: "name",
      label: "modules.quotes.products.name",
      type: "text",
      aliases: ["Ad", "Adı", "Ürün", "Ürün Adı", "Hizmet", "Hizmet Adı", "Stok Adı", "Name", "Product", "Product name", "Item"],
    },
    { key: "unit", label: "modules.quotes.products.unit", type: "text", aliases: ["Birim", "Ölçü Birimi", "Unit"] },
    {
      key: "unit_price",
      label: "modules.quotes.products.unit_price",
      type: "money",
      aliases: ["Birim Fiyat", "Birim Fiyatı", "Fiyat", "Satış Fiyatı", "Liste Fiyatı", "Unit price", "Price"],
    },
    { key: "currency", label: "modules.quotes.products.currency", type: "text", aliases: ["Para Birimi", "Döviz", "Döviz Cinsi", "Currency"] },
    { key: "vat_rate", label: "modules.quotes.products.vat_rate", type: "number", aliases: ["KDV", "KDV Oranı", "KDV %", "VAT", "VAT rate", "Tax rate"] },
    { key: "description", label: "modules.quotes.products.descriptionField", type: "text", aliases: ["Açıklama", "Not", "Notlar", "Description", "Notes"] },
    {
      key: "active",
      label: "modules.quotes.products.active",
      type: "boolean",
      aliases: ["Aktif", "Etkin", "Active"],
      booleanWords: { yes: ["Etkin", "Aktif", "Active"], no: ["Pasif", "Inactive", "Passive"] },
    },
  ],
};

export const importKindDefinitions: Readonly<Record<ImportKind, ImportKindDefinition>> = { customers, contacts, deals, tasks, products };

export function importKind(kind: ImportKind): ImportKindDefinition {
  return importKindDefinitions[kind];
}

export function findField(definition: ImportKindDefinition, key: string): ImportField | undefined {
  return definition.fields.find((field) => field.key === key);
}

/** The value keys a field's cell writes (its own key unless it writes others). */
export function writtenKeys(field: ImportField): readonly string[] {
  return field.writes ?? [field.key];
}

/** The kinds the signed-in user may import: the module's import permission (products: with scope all). */
export function importableKinds(permissions: MyPermissions["permissions"]): ImportKind[] {
  return importKinds.filter((kind) => {
    const { module, requiresScopeAll } = importKindDefinitions[kind];
    const scope = permissions[module]?.import;
    return scope !== undefined && (!requiresScopeAll || scope === "all");
  });
}

/** Whether the user may import this kind with scope all (and so revert anyone's import of it). */
export function importsEverything(permissions: MyPermissions["permissions"], kind: ImportKind): boolean {
  return permissions[importKindDefinitions[kind].module]?.import === "all";
}

/** A field's conflicts, both ways: those it names and those that name it. */
export function conflictsOf(definition: ImportKindDefinition, key: string): readonly string[] {
  const named = findField(definition, key)?.conflicts ?? [];
  const naming = definition.fields.filter((field) => field.conflicts?.includes(key)).map((field) => field.key);
  return [...new Set([...named, ...naming])];
}

/** The fields whose mapping makes a match key usable (contacts match on the name from first and last name or the full name). */
export function matchKeyFields(definition: ImportKindDefinition, key: MatchKey): readonly string[] {
  if (definition.kind === "contacts" && key === "name") return ["full_name", "first_name", "last_name"];
  return [key];
}

export function isImportKind(value: unknown): value is ImportKind {
  return typeof value === "string" && (importKinds as readonly string[]).includes(value);
}
