/**
 * A quote or contract as a pdfmake document definition: A4, a header with the logo and the
 * sender on every page (name, legal name, address, tax office and VKN, MERSİS, phone,
 * e-mail, website), its IBANs in the footer beside "Sayfa 1 / 2", the template's text
 * flowing with the tables where its block placeholders stand (under the items table, each
 * 0 % KDV line's exemption reason and each line's KDV withholding), right-aligned totals,
 * title and author in the metadata. Everything printed is plain text from the template and the data (pdfmake
 * draws strings as they are: no HTML, no markup); the only image is the organization's logo,
 * accepted as a PNG or JPEG data URL and nothing else (never a path or a remote address).
 */
import { totalsRows, type DocumentItemRow, type VatBreakdownRow } from "@/lib/document-template/document-data.ts";
import { documentLabels, type DocumentLanguage, type DocumentLabels } from "@/lib/document-template/labels.ts";
import type { BlockKind, PlaceholderValues, TemplateKind, TextPlaceholder } from "@/lib/document-template/placeholders.ts";
import { bankAccountLines, fullAddress, organizationValues, printedPhone, type OrganizationDetails } from "@/lib/document-template/organization.ts";
import { renderTemplate } from "@/lib/document-template/render.ts";
import { defaultTemplateBodies } from "./default-templates.ts";

type TotalsPlaceholderKey = Extract<TextPlaceholder, `totals.${string}`> extends `totals.${infer Key}` ? Key : never;

/** What a quote or contract PDF prints. Amounts are text already formatted from exact decimals. */
export interface DocumentPdfInput {
  kind: TemplateKind;
  language: DocumentLanguage;
  /** The sender, from the general settings (organizationFromSettings). */
  organization: OrganizationDetails;
  /** Text for the placeholders (organization.* values default to the organization above). */
  values: PlaceholderValues;
  items?: readonly DocumentItemRow[];
  vat_breakdown?: readonly VatBreakdownRow[];
  /** The totals by their totals.* placeholder names without the prefix (gross, net, total_in_words...); the values' totals.* win. */
  totals?: Readonly<Partial<Record<TotalsPlaceholderKey, string>>>;
}

/** The subset of pdfmake's document definition built here. */
export type PdfContent = string | { [key: string]: unknown } | PdfContent[];
export interface PdfDocumentDefinition {
  pageSize: "A4";
  pageMargins: [number, number, number, number];
  language: string;
  info: { title: string; author: string; subject: string; creator: string };
  defaultStyle: { font: string; fontSize: number; lineHeight: number };
  images: Record<string, string>;
  header: (currentPage: number, pageCount: number) => PdfContent;
  footer: (currentPage: number, pageCount: number) => PdfContent;
  content: PdfContent[];
}

export const PDF_FONT = "Roboto";

const logoPattern = /^data:image\/(?:png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$/;

/** The logo if it is a PNG or JPEG data URL; pdfmake would otherwise read paths and URLs. */
export function acceptedLogo(logo: string | null | undefined): string | null {
  return logo && logoPattern.test(logo) ? logo : null;
}

const present = (value: string | null | undefined): value is string => typeof value === "string" && value.trim() !== "";

/** The values with the organization's own fields and the totals object filled in where the values lack them. */
export function completeValues(input: DocumentPdfInput): PlaceholderValues {
  const fromOrganization: PlaceholderValues = organizationValues(input.organization);
  const fromTotals = Object.fromEntries(Object.entries(input.totals ?? {}).map(([key, value]) => [`totals.${key}`, value]));
  return { ...fromOrganization, ...fromTotals, ...input.values };
}

// Amounts, rates and quantities never wrap: the description column takes what is left.
const rightAligned = (text: string) => ({ text, alignment: "right", noWrap: true });
const headerCell = (text: string, alignment: "left" | "right" = "left") => ({ text, bold: true, alignment, noWrap: alignment === "right", fillColor: "#eeeeee" });

function itemsTable(items: readonly DocumentItemRow[], labels: DocumentLabels): PdfContent {
  const columns = labels.items;
  return {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: ["auto", "*", "auto", "auto", "auto", "auto", "auto", "auto", "auto"],
      body: [
        [
          headerCell(columns.position),
          headerCell(columns.description),
          headerCell(columns.quantity, "right"),
          headerCell(columns.unitPrice, "right"),
          headerCell(columns.discount, "right"),
          headerCell(columns.vatRate, "right"),
          headerCell(columns.lineNet, "right"),
          headerCell(columns.lineVat, "right"),
          headerCell(columns.lineGross, "right"),
        ],
        ...items.map((item) => [
          String(item.position),
          item.description,
          rightAligned(item.quantity),
          rightAligned(item.unit_price),
          rightAligned(item.discount),
          rightAligned(item.vat_rate),
          rightAligned(item.line_net),
          rightAligned(item.line_vat),
          rightAligned(item.line_gross),
        ]),
      ],
    },
    layout: "lightHorizontalLines",
    fontSize: 7.5,
    margin: [0, 4, 0, 6],
  };
}

/**
 * What the items table cannot hold, in full sentences under it: the exemption (istisna or
 * muafiyet) reason of every 0 % KDV line, which the law requires on the document, and each
 * line's KDV withholding (tevkifat).
 */
function itemNotes(items: readonly DocumentItemRow[], labels: DocumentLabels): PdfContent[] {
  const notes = items.flatMap((item) => [
    ...(present(item.vat_exemption_reason) ? [labels.exemptionNote(String(item.position), item.vat_exemption_reason.trim())] : []),
    ...(item.withholding ? [labels.withholdingNote(String(item.position), item.withholding.rate, item.withholding.amount)] : []),
  ]);
  return notes.map((text) => ({ text, fontSize: 8, margin: [0, 0, 0, 2] }));
}

function vatTable(rows: readonly VatBreakdownRow[], labels: DocumentLabels): PdfContent {
  const columns = labels.vatBreakdown;
  const withheld = rows.some((row) => present(row.withholding));
  return {
    table: {
      headerRows: 1,
      widths: withheld ? ["auto", "auto", "auto", "auto"] : ["auto", "auto", "auto"],
      body: [
        [
          headerCell(columns.rate),
          headerCell(columns.base, "right"),
          headerCell(columns.vat, "right"),
          ...(withheld ? [headerCell(columns.withholding, "right")] : []),
        ],
        ...rows.map((row) => [
          row.rate,
          rightAligned(row.base),
          rightAligned(row.vat),
          ...(withheld ? [rightAligned(row.withholding ?? "")] : []),
        ]),
      ],
    },
    layout: "lightHorizontalLines",
    fontSize: 8,
    margin: [0, 4, 0, 6],
  };
}

function totalsTable(values: PlaceholderValues, labels: DocumentLabels): PdfContent {
  const rows = totalsRows(values);
  return {
    columns: [
      { width: "*", text: "" },
      {
        width: "auto",
        table: {
          body: rows.map((row) => {
            const bold = row.key === "total";
            return [{ text: labels.totals[row.key], bold }, { text: row.value, bold, alignment: "right" }];
          }),
        },
        layout: "noBorders",
      },
    ],
    margin: [0, 4, 0, 6],
  };
}

function block(kind: BlockKind, input: DocumentPdfInput, values: PlaceholderValues, labels: DocumentLabels, logo: string | null): PdfContent {
  switch (kind) {
    case "items": {
      const notes = itemNotes(input.items ?? [], labels);
      return notes.length > 0 ? { stack: [itemsTable(input.items ?? [], labels), ...notes], margin: [0, 0, 0, 6] } : itemsTable(input.items ?? [], labels);
    }
    case "vat_breakdown":
      return vatTable(input.vat_breakdown ?? [], labels);
    case "totals":
      return totalsTable(values, labels);
    case "logo":
      return logo ? { image: "logo", fit: [150, 60], margin: [0, 2, 0, 2] } : "";
  }
}

/** The sender's lines under its name: legal name (when it differs), address, tax office and VKN with MERSİS, phone, e-mail and website. */
function senderLines(organization: OrganizationDetails, labels: DocumentLabels): string[] {
  const legalName = organization.legal_name?.trim() ?? "";
  const taxLine = [
    present(organization.tax_office) ? `${labels.taxOffice}: ${organization.tax_office.trim()}` : "",
    present(organization.tax_number) ? `${labels.taxNumber}: ${organization.tax_number.trim()}` : "",
    present(organization.mersis_number) ? `${labels.mersisNumber}: ${organization.mersis_number.trim()}` : "",
  ].filter(present);
  return [
    legalName !== organization.name.trim() ? legalName : "",
    fullAddress(organization),
    taxLine.join("  "),
    [printedPhone(organization.phone), organization.email?.trim(), organization.website?.trim()].filter(present).join("  "),
  ].filter(present);
}

/** The organization's name and details at the top of each page, its logo left, the title and number right. */
function pageHeader(input: DocumentPdfInput, labels: DocumentLabels, number: string, logo: string | null): PdfContent {
  const organization = input.organization;
  const details = senderLines(organization, labels);
  return {
    margin: [40, 24, 40, 0],
    columns: [
      ...(logo ? [{ image: "logo", fit: [110, 50], width: 110 }] : []),
      { width: "*", stack: [{ text: organization.name, bold: true, fontSize: 11 }, ...details.map((text) => ({ text, fontSize: 8 }))], margin: [logo ? 10 : 0, 0, 0, 0] },
      { width: "auto", stack: [{ text: labels.title[input.kind], bold: true, fontSize: 14, alignment: "right" }, { text: number, fontSize: 9, alignment: "right" }] },
    ],
  };
}

/**
 * The document definition of `input` with the template's body (`template` null or blank: the
 * built-in body of the kind). Unknown placeholders print as written.
 */
export function documentDefinition(input: DocumentPdfInput, template: { body: string } | null): PdfDocumentDefinition {
  const labels = documentLabels[input.language];
  const values = completeValues(input);
  const logo = acceptedLogo(input.organization.logo);
  const body = template && template.body.trim() !== "" ? template.body : defaultTemplateBodies[input.kind];
  const number = (input.kind === "quote" ? values["quote.number"] : values["contract.number"]) ?? "";
  const title = [labels.title[input.kind], number].filter(present).join(" ");

  const content: PdfContent[] = renderTemplate(body, values).map((segment) =>
    segment.type === "block" ? block(segment.block, input, values, labels, logo) : { text: segment.text, preserveLeadingSpaces: true },
  );
  // The header grows with the sender's lines, the footer with its IBANs (10 at most).
  const headerLines = senderLines(input.organization, labels).length;
  const ibans = bankAccountLines(input.organization).slice(0, 10);

  return {
    pageSize: "A4",
    pageMargins: [40, Math.max(100, 50 + 11 * headerLines + 20), 40, 50 + 10 * ibans.length],
    language: input.language === "tr" ? "tr-TR" : "en-GB",
    info: { title, author: input.organization.name, subject: title, creator: input.organization.name },
    defaultStyle: { font: PDF_FONT, fontSize: 9.5, lineHeight: 1.2 },
    images: logo ? { logo } : {},
    header: () => pageHeader(input, labels, number, logo),
    footer: (currentPage, pageCount) => ({
      margin: [40, 16, 40, 0],
      columns: [
        { width: "*", stack: ibans.map((text) => ({ text, fontSize: 7.5 })) },
        { width: "auto", text: labels.page(currentPage, pageCount), alignment: "right", fontSize: 8 },
      ],
    }),
    content,
  };
}
