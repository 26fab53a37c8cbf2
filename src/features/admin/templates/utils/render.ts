/**
 * The preview of a quote or contract template. The body is plain text: placeholders such as
 * {{customer.name}} are swapped for sample values by looking their name up in a fixed list
 * (no expression is ever evaluated, no HTML is ever interpreted); an unknown placeholder
 * stays as written so the screen can point it out. {{items_table}} becomes a table the
 * preview draws itself.
 */

export const placeholders = [
  "organization.name",
  "customer.name",
  "customer.address",
  "contact.name",
  "contact.email",
  "quote.number",
  "quote.date",
  "quote.valid_until",
  "items_table",
  "totals.subtotal",
  "totals.vat",
  "totals.total",
  "contract.title",
  "contract.start_date",
  "contract.end_date",
  "today",
] as const;
export type Placeholder = (typeof placeholders)[number];

export const ITEMS_TABLE: Placeholder = "items_table";

/** How a placeholder is written in a body. */
export const placeholderToken = (name: Placeholder) => `{{${name}}}`;

export interface SampleItem {
  description: string;
  quantity: number;
  unitPrice: string;
  total: string;
}

export interface SampleData {
  /** Text for every placeholder but the items table. */
  values: ReadonlyMap<string, string>;
  items: SampleItem[];
}

export type Segment =
  | { type: "text"; text: string }
  | { type: "unknown"; text: string }
  | { type: "items" };

// {{ name }}: a name is anything but braces, so `{{constructor.constructor('x')()}}` is one
// (unknown) placeholder, kept literally.
const placeholderPattern = /\{\{([^{}]*)\}\}/g;

/** Splits a body into text, known values, unknown placeholders and the items table. */
export function renderTemplate(body: string, data: SampleData): Segment[] {
  const segments: Segment[] = [];
  let text = "";
  let last = 0;
  for (const match of body.matchAll(placeholderPattern)) {
    text += body.slice(last, match.index);
    last = match.index + match[0].length;
    const name = (match[1] ?? "").trim();
    // A Map holds only its own entries: `constructor`, `__proto__` and the like are unknown.
    const value = data.values.get(name);
    if (value !== undefined) {
      text += value;
    } else {
      if (text) segments.push({ type: "text", text });
      text = "";
      segments.push(name === ITEMS_TABLE ? { type: "items" } : { type: "unknown", text: match[0] });
    }
  }
  text += body.slice(last);
  if (text) segments.push({ type: "text", text });
  return segments;
}

const money = new Intl.NumberFormat("tr-TR", { style: "currency", currency: "TRY" });
const day = new Intl.DateTimeFormat("tr-TR", { dateStyle: "long" });

const addDays = (date: Date, days: number) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);

/** A Turkish sample company, customer and two-line quote (20% VAT), dated from `today`. */
export function sampleData(today: Date): SampleData {
  const lines = [
    { description: "CRM Kurumsal Lisans (yıllık, kullanıcı başına)", quantity: 10, unitPrice: 4500 },
    { description: "Kurulum ve eğitim hizmeti", quantity: 1, unitPrice: 12500 },
  ];
  const subtotal = lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);
  const vat = subtotal * 0.2;
  const values: Record<Exclude<Placeholder, "items_table">, string> = {
    "organization.name": "Demo Yazılım A.Ş.",
    "customer.name": "Anadolu Yapı Malzemeleri Ltd. Şti.",
    "customer.address": "Atatürk Cad. No: 12, Kadıköy, İstanbul",
    "contact.name": "Zeynep Kaya",
    "contact.email": "zeynep.kaya@anadoluyapi.com.tr",
    "quote.number": "TKF-2026-0042",
    "quote.date": day.format(today),
    "quote.valid_until": day.format(addDays(today, 30)),
    "totals.subtotal": money.format(subtotal),
    "totals.vat": money.format(vat),
    "totals.total": money.format(subtotal + vat),
    "contract.title": "Yazılım Hizmet Sözleşmesi",
    "contract.start_date": day.format(addDays(today, 7)),
    "contract.end_date": day.format(addDays(today, 372)),
    today: day.format(today),
  };
  return {
    values: new Map(Object.entries(values)),
    items: lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unitPrice: money.format(line.unitPrice),
      total: money.format(line.quantity * line.unitPrice),
    })),
  };
}

/** The text with `insert` put in place of the selection; `caret` is where the cursor goes next. */
export function insertAt(text: string, start: number, end: number, insert: string): { text: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + insert + text.slice(to), caret: from + insert.length };
}
