/**
 * The fixed list of placeholders a quote or contract template may use. A template is plain
 * text; `{{name}}` is looked up in this list (never evaluated), so a template cannot run code
 * or load anything. Text placeholders take a value; block placeholders stand for something the
 * renderer draws itself (a table, the logo).
 */

export const templateKinds = ["quote", "contract"] as const;
export type TemplateKind = (typeof templateKinds)[number];

export const placeholderGroups = ["organization", "customer", "contact", "quote", "items", "totals", "contract", "general"] as const;
export type PlaceholderGroup = (typeof placeholderGroups)[number];

/** What a block placeholder is drawn as. */
export type BlockKind = "logo" | "items" | "vat_breakdown" | "totals";

interface PlaceholderDefinition {
  name: string;
  group: PlaceholderGroup;
  /** The template kinds it is offered for (both kinds fill every placeholder they know). */
  kinds: readonly TemplateKind[];
  block?: BlockKind;
}

const both = templateKinds;
const quoteOnly = ["quote"] as const;
const contractOnly = ["contract"] as const;

export const placeholderDefinitions = [
  // Filled from the general settings by organizationValues (organization.ts), typed by this list.
  { name: "organization.name", group: "organization", kinds: both },
  { name: "organization.legal_name", group: "organization", kinds: both },
  { name: "organization.address", group: "organization", kinds: both },
  { name: "organization.district", group: "organization", kinds: both },
  { name: "organization.province", group: "organization", kinds: both },
  { name: "organization.tax_office", group: "organization", kinds: both },
  { name: "organization.tax_number", group: "organization", kinds: both },
  { name: "organization.mersis_number", group: "organization", kinds: both },
  { name: "organization.phone", group: "organization", kinds: both },
  { name: "organization.email", group: "organization", kinds: both },
  { name: "organization.website", group: "organization", kinds: both },
  { name: "organization.iban", group: "organization", kinds: both },
  { name: "organization.logo", group: "organization", kinds: both, block: "logo" },
  { name: "customer.name", group: "customer", kinds: both },
  { name: "customer.tax_number", group: "customer", kinds: both },
  { name: "customer.tax_office", group: "customer", kinds: both },
  { name: "customer.address", group: "customer", kinds: both },
  { name: "contact.name", group: "contact", kinds: both },
  { name: "contact.email", group: "contact", kinds: both },
  { name: "contact.phone", group: "contact", kinds: both },
  { name: "quote.number", group: "quote", kinds: quoteOnly },
  { name: "quote.revision", group: "quote", kinds: quoteOnly },
  { name: "quote.date", group: "quote", kinds: quoteOnly },
  { name: "quote.valid_until", group: "quote", kinds: quoteOnly },
  { name: "quote.currency", group: "quote", kinds: quoteOnly },
  { name: "quote.exchange_rate", group: "quote", kinds: quoteOnly },
  { name: "quote.payment_terms", group: "quote", kinds: quoteOnly },
  { name: "quote.notes", group: "quote", kinds: quoteOnly },
  { name: "items_table", group: "items", kinds: quoteOnly, block: "items" },
  { name: "vat_breakdown", group: "items", kinds: quoteOnly, block: "vat_breakdown" },
  { name: "totals_table", group: "items", kinds: quoteOnly, block: "totals" },
  { name: "totals.gross", group: "totals", kinds: quoteOnly },
  { name: "totals.line_discounts", group: "totals", kinds: quoteOnly },
  { name: "totals.document_discount", group: "totals", kinds: quoteOnly },
  { name: "totals.net", group: "totals", kinds: quoteOnly },
  { name: "totals.vat", group: "totals", kinds: quoteOnly },
  { name: "totals.withholding", group: "totals", kinds: quoteOnly },
  { name: "totals.total", group: "totals", kinds: quoteOnly },
  { name: "totals.total_try", group: "totals", kinds: quoteOnly },
  { name: "totals.total_in_words", group: "totals", kinds: quoteOnly },
  { name: "contract.number", group: "contract", kinds: contractOnly },
  { name: "contract.title", group: "contract", kinds: contractOnly },
  { name: "contract.type", group: "contract", kinds: contractOnly },
  { name: "contract.start_date", group: "contract", kinds: contractOnly },
  { name: "contract.end_date", group: "contract", kinds: contractOnly },
  { name: "contract.value", group: "contract", kinds: contractOnly },
  { name: "contract.value_in_words", group: "contract", kinds: contractOnly },
  { name: "contract.customer_signed_on", group: "contract", kinds: contractOnly },
  { name: "contract.company_signed_on", group: "contract", kinds: contractOnly },
  { name: "contract.renewal_terms", group: "contract", kinds: contractOnly },
  { name: "contract.vat_amount", group: "contract", kinds: contractOnly },
  { name: "contract.total_with_vat", group: "contract", kinds: contractOnly },
  { name: "contract.company_party", group: "contract", kinds: contractOnly },
  { name: "contract.customer_party", group: "contract", kinds: contractOnly },
  { name: "contract.term", group: "contract", kinds: contractOnly },
  { name: "contract.value_terms", group: "contract", kinds: contractOnly },
  { name: "contract.company_signatory", group: "contract", kinds: contractOnly },
  { name: "contract.customer_signatory", group: "contract", kinds: contractOnly },
  { name: "owner.name", group: "general", kinds: both },
  { name: "today", group: "general", kinds: both },
] as const satisfies readonly PlaceholderDefinition[];

type Definition = (typeof placeholderDefinitions)[number];
export type Placeholder = Definition["name"];
/** Placeholders drawn by the renderer (tables, logo). */
export type BlockPlaceholder = Extract<Definition, { block: BlockKind }>["name"];
/** Placeholders replaced by text. */
export type TextPlaceholder = Exclude<Placeholder, BlockPlaceholder>;

/** Every placeholder name, in the list's order. */
export const placeholders: readonly Placeholder[] = placeholderDefinitions.map((definition) => definition.name);

/**
 * The records whose custom fields (DESIGN.md D11) a document may print, by placeholder prefix:
 * `{{customer.cf_sektor_kodu}}` is the customer's field cf_sektor_kodu.
 */
export const customPlaceholderGroups = ["customer", "contact", "deal", "quote", "contract"] as const;
export type CustomPlaceholderGroup = (typeof customPlaceholderGroups)[number];
/** A custom field's placeholder: its record's prefix and its key. */
export type CustomPlaceholder = `${CustomPlaceholderGroup}.cf_${string}`;

const customPlaceholderPattern = /^(?:customer|contact|deal|quote|contract)\.cf_[a-z][a-z0-9_]{0,39}$/;

/** Whether a name is written as a custom field's placeholder (it is known only when the values have it). */
export function isCustomPlaceholder(name: string): name is CustomPlaceholder {
  return customPlaceholderPattern.test(name);
}

/** The placeholder of a custom field of a record. */
export const customPlaceholder = (group: CustomPlaceholderGroup, key: string) => `${group}.${key}` as CustomPlaceholder;

/**
 * Text values by placeholder; a missing one prints as nothing. Custom fields' placeholders are
 * known by being here: the organization's fields of the document's records, each with its
 * formatted value ("" when the record holds none); any other stays unknown.
 */
export type PlaceholderValues = Readonly<Partial<Record<TextPlaceholder, string>> & Partial<Record<CustomPlaceholder, string>>>;

// A Map holds only its own entries: `constructor`, `__proto__` and the like are never found.
const byName: ReadonlyMap<string, PlaceholderDefinition> = new Map(placeholderDefinitions.map((definition) => [definition.name, definition]));

/** The definition of a placeholder name, or undefined when the list does not have it. */
export function placeholderDefinition(name: string): PlaceholderDefinition | undefined {
  return byName.get(name);
}

/** The placeholders offered for a kind, grouped in the list's order. */
export function placeholdersByGroup(kind: TemplateKind): { group: PlaceholderGroup; names: Placeholder[] }[] {
  return placeholderGroups
    .map((group) => ({
      group,
      names: placeholderDefinitions
        .filter((definition) => definition.group === group && (definition.kinds as readonly TemplateKind[]).includes(kind))
        .map((definition) => definition.name),
    }))
    .filter((entry) => entry.names.length > 0);
}

/** How a placeholder is written in a body. */
export const placeholderToken = (name: Placeholder | CustomPlaceholder) => `{{${name}}}`;
