/**
 * What can be imported (contract: private.import_kinds on the server): the five kinds, the
 * permission each needs, the keys an import can match existing records on, and each kind's
 * fields: the value key the server takes, the label (a catalogue key), the cell's type, the
 * header names a file may use for it in Turkish and English, and what a new record needs.
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
  fields: readonly ImportField[];
  /** What a new record needs: each group is satisfied by one of its fields. */
  required: readonly (readonly string[])[];
  matchKeys: readonly MatchKey[];
}

// ---------------------------------------------------------------------------------
// Fields every kind shares
// ---------------------------------------------------------------------------------

const idField: ImportField = {
  key: "id",
  label: "modules.importExport.fields.id",
  type: "text",
  aliases: ["ID", "Kayıt ID", "Kayıt Kimliği", "Kayıt No", "Record ID", "UUID"],
};

const externalIdField = (aliases: readonly string[]): ImportField => ({
  key: "external_id",
  label: "modules.importExport.fields.external_id",
  type: "text",
  aliases: ["Harici Kod", "Harici ID", "Harici No", "Dış Kod", "Dış ID", "Dış Kimlik", "Kod", "External ID", "External code", "Code", ...aliases],
});

const ownerField = (label: ParseKeys): ImportField => ({
  key: "owner",
  label,
  labelAliases: ["records.list.owner"],
  type: "reference",
  aliases: ["Sahip", "Sahibi", "Kayıt Sahibi", "Sorumlu", "Temsilci", "Satış Temsilcisi", "Müşteri Temsilcisi", "Owner", "Assignee", "Assigned to", "Sales rep"],
});

const tagsField = (label: ParseKeys): ImportField => ({
  key: "tags",
  label,
  type: "tags",
  aliases: ["Etiket", "Etiketler", "Tag", "Tags", "Labels"],
});

const descriptionField = (label: ParseKeys): ImportField => ({
  key: "description",
  label,
  type: "text",
  aliases: ["Açıklama", "Not", "Notlar", "Description", "Notes"],
});

const customerReference = (label: ParseKeys): ImportField => ({
  key: "customer",
  label,
  type: "reference",
  aliases: ["Müşteri", "Müşteri Adı", "Firma", "Firma Adı", "Şirket", "Kurum", "Cari", "Cari Adı", "Customer", "Company", "Account"],
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
  fields: [
    idField,
    externalIdField(["Cari Kod", "Cari Kodu", "Müşteri Kodu", "Customer code"]),
    {
      key: "name",
      label: "modules.customers.fields.name",
      labelAliases: ["modules.customers.list.columns.name"],
      type: "text",
      aliases: [
        "Ad",
        "Adı",
        "Unvan",
        "Ünvan",
        "Ticari Unvan",
        "Firma",
        "Firma Adı",
        "Firma Unvanı",
        "Müşteri",
        "Müşteri Adı",
        "Cari Adı",
        "Cari Unvanı",
        "Ad Soyad",
        "Unvan / Ad Soyad",
        "Name",
        "Company",
        "Company name",
        "Customer",
        "Customer name",
        "Company / Full name",
      ],
    },
    {
      key: "kind",
      label: "modules.customers.fields.kind",
      type: "enum",
      aliases: ["Tür", "Tip", "Müşteri Türü", "Kind", "Type", "Customer type"],
      options: [
        { key: "company", label: "modules.customers.kinds.company", aliases: ["Şirket", "Firma", "Tüzel", "Tüzel Kişi", "Kurumsal", "Company", "Corporate", "Business"] },
        { key: "person", label: "modules.customers.kinds.person", aliases: ["Şahıs", "Şahıs Firması", "Gerçek Kişi", "Bireysel", "Person", "Individual"] },
      ],
    },
    {
      key: "tax_number",
      label: "modules.customers.fields.tax_number",
      type: "text",
      aliases: [
        "VKN",
        "TCKN",
        "VKN / TCKN",
        "Vergi No",
        "Vergi Numarası",
        "Vergi Kimlik No",
        "Vergi Kimlik Numarası",
        "TC Kimlik No",
        "T.C. Kimlik No",
        "Kimlik No",
        "Tax number",
        "Tax no",
        "Tax ID",
        "VAT number",
        "Tax number (VKN / TCKN)",
      ],
    },
    { key: "tax_office", label: "modules.customers.fields.tax_office", type: "text", aliases: ["Vergi Dairesi", "VD", "Tax office"] },
    { key: "sector", label: "modules.customers.fields.sector", type: "text", aliases: ["Sektör", "Faaliyet Alanı", "Sector", "Industry"] },
    {
      key: "status",
      label: "modules.customers.fields.status",
      type: "enum",
      aliases: ["Durum", "Müşteri Durumu", "Status"],
      options: [
        { key: "lead", label: "modules.customers.statuses.lead", aliases: ["Aday", "Potansiyel", "Lead", "Prospect"] },
        { key: "active", label: "modules.customers.statuses.active", aliases: ["Aktif", "Etkin", "Active"] },
        { key: "passive", label: "modules.customers.statuses.passive", aliases: ["Pasif", "Passive", "Inactive"] },
      ],
    },
    {
      key: "phone",
      label: "modules.customers.fields.phone",
      type: "text",
      aliases: ["Telefon", "Tel", "Tel No", "Telefon No", "Telefon Numarası", "GSM", "Cep", "Phone", "Phone number", "Telephone"],
    },
    {
      key: "email",
      label: "modules.customers.fields.email",
      type: "text",
      aliases: ["E-posta", "E-posta Adresi", "Mail", "E-mail", "Email", "Email address"],
    },
    { key: "website", label: "modules.customers.fields.website", type: "text", aliases: ["Web", "Web Sitesi", "Web Adresi", "İnternet Sitesi", "Website", "URL"] },
    { key: "city", label: "modules.customers.fields.city", type: "text", aliases: ["İl", "Şehir", "City", "Province"] },
    { key: "district", label: "modules.customers.fields.district", type: "text", aliases: ["İlçe", "District"] },
    { key: "address", label: "modules.customers.fields.address", type: "text", aliases: ["Adres", "Açık Adres", "Address"] },
    tagsField("modules.customers.fields.tags"),
    descriptionField("modules.customers.fields.description"),
    ownerField("modules.customers.fields.owner_id"),
  ],
};

const contacts: ImportKindDefinition = {
  kind: "contacts",
  module: "contacts",
  requiresScopeAll: false,
  label: "modules.importExport.kinds.contacts",
  required: [["first_name", "last_name", "full_name"]],
  matchKeys: ["id", "external_id", "email", "name"],
  fields: [
    idField,
    externalIdField(["Kişi Kodu", "Contact code"]),
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
      key: "first_name",
      label: "modules.contacts.fields.first_name",
      type: "text",
      aliases: ["Ad", "Adı", "İsim", "First name", "Given name"],
      conflicts: ["full_name"],
    },
    {
      key: "last_name",
      label: "modules.contacts.fields.last_name",
      type: "text",
      aliases: ["Soyad", "Soyadı", "Soyisim", "Last name", "Surname", "Family name"],
      conflicts: ["full_name"],
    },
    {
      key: "title",
      label: "modules.contacts.fields.title",
      type: "text",
      aliases: ["Unvan", "Ünvan", "Görev", "Görevi", "Pozisyon", "Title", "Job title", "Position"],
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
    customerReference("modules.contacts.fields.customer_id"),
    tagsField("modules.contacts.fields.tags"),
    descriptionField("modules.contacts.fields.description"),
    {
      key: "kvkk_consent",
      label: "modules.contacts.fields.kvkk_consent",
      labelAliases: ["modules.contacts.list.consent"],
      type: "boolean",
      aliases: ["KVKK", "KVKK Onayı", "KVKK Rızası", "Açık Rıza", "Consent", "KVKK consent"],
    },
    {
      key: "kvkk_consent_channel",
      label: "modules.contacts.fields.kvkk_consent_channel",
      type: "enum",
      aliases: ["Rıza Kanalı", "Onay Kanalı", "Consent channel"],
      options: [
        { key: "form", label: "modules.contacts.consentChannels.form", aliases: ["Form"] },
        { key: "email", label: "modules.contacts.consentChannels.email", aliases: ["E-posta", "Mail", "Email"] },
        { key: "phone", label: "modules.contacts.consentChannels.phone", aliases: ["Telefon", "Phone"] },
        { key: "in_person", label: "modules.contacts.consentChannels.in_person", aliases: ["Yüz yüze", "In person"] },
        { key: "other", label: "modules.contacts.consentChannels.other", aliases: ["Diğer", "Other"] },
      ],
    },
    { key: "kvkk_consent_at", label: "modules.contacts.fields.kvkk_consent_at", type: "datetime", aliases: ["Rıza Tarihi", "Onay Tarihi", "Consent date"] },
    { key: "kvkk_consent_source", label: "modules.contacts.fields.kvkk_consent_source", type: "text", aliases: ["Rıza Kaynağı", "Onay Kaynağı", "Consent source"] },
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
  fields: [
    idField,
    externalIdField(["Fırsat Kodu", "Deal code"]),
    {
      key: "title",
      label: "modules.deals.fields.title",
      type: "text",
      aliases: ["Başlık", "Fırsat", "Fırsat Adı", "Konu", "Title", "Deal", "Deal name", "Opportunity"],
    },
    customerReference("modules.deals.fields.customer_id"),
    {
      key: "amount",
      label: "modules.deals.fields.amount",
      type: "money",
      aliases: ["Tutar", "Değer", "Fırsat Tutarı", "Amount", "Value", "Deal value"],
    },
    { key: "currency", label: "modules.deals.fields.currency", type: "text", aliases: ["Para Birimi", "Döviz", "Döviz Cinsi", "Currency"] },
    { key: "stage", label: "modules.deals.fields.stage", type: "text", aliases: ["Aşama", "Evre", "Satış Aşaması", "Stage", "Pipeline stage"] },
    {
      key: "probability",
      label: "modules.deals.fields.probability",
      type: "number",
      aliases: ["Olasılık", "Olasılık (%)", "İhtimal", "Probability", "Probability (%)"],
    },
    {
      key: "expected_close_date",
      label: "modules.deals.fields.expected_close_date",
      type: "date",
      aliases: ["Beklenen Kapanış", "Beklenen Kapanış Tarihi", "Tahmini Kapanış", "Kapanış Tarihi", "Expected close", "Expected close date", "Close date"],
    },
    { key: "source", label: "modules.deals.fields.source", type: "text", aliases: ["Kaynak", "Source", "Lead source"] },
    tagsField("modules.deals.fields.tags"),
    descriptionField("modules.deals.fields.description"),
    { key: "lost_reason", label: "modules.deals.fields.lost_reason", type: "text", aliases: ["Kaybetme Nedeni", "Kayıp Nedeni", "Lost reason"] },
    ownerField("modules.deals.fields.owner_id"),
  ],
};

const tasks: ImportKindDefinition = {
  kind: "tasks",
  module: "tasks",
  requiresScopeAll: false,
  label: "modules.importExport.kinds.tasks",
  required: [["title"]],
  matchKeys: ["id", "external_id", "title"],
  fields: [
    idField,
    externalIdField(["Görev Kodu", "Task code"]),
    { key: "title", label: "modules.tasks.fields.title", type: "text", aliases: ["Başlık", "Görev", "Görev Adı", "Konu", "İş", "Title", "Task", "Subject"] },
    descriptionField("modules.tasks.fields.description"),
    {
      key: "type",
      label: "modules.tasks.fields.type",
      type: "enum",
      openOptions: true,
      aliases: ["Tür", "Tip", "Görev Türü", "Type", "Task type"],
      options: [
        { key: "call", label: "taskKit.types.call", aliases: ["Arama", "Telefon", "Call", "Phone call"] },
        { key: "meeting", label: "taskKit.types.meeting", aliases: ["Toplantı", "Görüşme", "Meeting"] },
        { key: "email", label: "taskKit.types.email", aliases: ["E-posta", "Mail", "Email"] },
        { key: "visit", label: "taskKit.types.visit", aliases: ["Ziyaret", "Visit"] },
        { key: "other", label: "taskKit.types.other", aliases: ["Diğer", "Other"] },
      ],
    },
    {
      key: "priority",
      label: "modules.tasks.fields.priority",
      type: "enum",
      aliases: ["Öncelik", "Önem", "Priority"],
      options: [
        { key: "low", label: "taskKit.priorities.low", aliases: ["Düşük", "Low"] },
        { key: "normal", label: "taskKit.priorities.normal", aliases: ["Normal", "Orta", "Medium"] },
        { key: "high", label: "taskKit.priorities.high", aliases: ["Yüksek", "High"] },
        { key: "urgent", label: "taskKit.priorities.urgent", aliases: ["Acil", "Kritik", "Urgent", "Critical"] },
      ],
    },
    {
      key: "status",
      label: "modules.tasks.fields.status",
      type: "enum",
      aliases: ["Durum", "Status"],
      options: [
        { key: "open", label: "taskKit.statuses.open", aliases: ["Açık", "Yeni", "Open", "New"] },
        { key: "in_progress", label: "taskKit.statuses.in_progress", aliases: ["Devam ediyor", "Sürüyor", "In progress"] },
        { key: "done", label: "taskKit.statuses.done", aliases: ["Tamamlandı", "Bitti", "Yapıldı", "Done", "Completed"] },
        { key: "cancelled", label: "taskKit.statuses.cancelled", aliases: ["İptal", "İptal edildi", "Cancelled", "Canceled"] },
      ],
    },
    {
      key: "due_at",
      label: "modules.tasks.fields.due_at",
      type: "datetime",
      aliases: ["Son Tarih", "Bitiş Tarihi", "Termin", "Due", "Due date", "Deadline"],
    },
    { key: "remind_at", label: "modules.tasks.fields.remind_at", type: "datetime", aliases: ["Hatırlatma", "Hatırlatma Tarihi", "Reminder", "Remind at"] },
    customerReference("modules.tasks.fields.customer_id"),
    {
      key: "contact",
      label: "modules.tasks.fields.contact_id",
      type: "reference",
      aliases: ["Kişi", "İlgili Kişi", "Kişi Adı", "Contact", "Contact name"],
    },
    { key: "deal", label: "modules.tasks.fields.deal_id", type: "reference", aliases: ["Fırsat", "Fırsat Adı", "Deal", "Opportunity"] },
    ownerField("modules.tasks.fields.owner_id"),
  ],
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
    externalIdField(["Ürün Kodu", "Stok Kodu", "SKU", "Product code"]),
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
    descriptionField("modules.quotes.products.descriptionField"),
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

/** The fields whose mapping makes a match key usable (contacts match on the name from first and last name or the full name). */
export function matchKeyFields(definition: ImportKindDefinition, key: MatchKey): readonly string[] {
  if (definition.kind === "contacts" && key === "name") return ["full_name", "first_name", "last_name"];
  return [key];
}

export function isImportKind(value: unknown): value is ImportKind {
  return typeof value === "string" && (importKinds as readonly string[]).includes(value);
}
