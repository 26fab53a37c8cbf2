/**
 * Reading a template body: plain text in which `{{name}}` is looked up in the fixed list of
 * placeholders (no expression is ever evaluated, no markup ever interpreted). A text
 * placeholder becomes its value (nothing when the data has none), a block placeholder a block
 * the renderer draws (the preview in React, the PDF with pdfmake), a custom field's placeholder
 * its value when the values have it (a field of the organization's), and a name the list does
 * not know stays as written, so the editor can point it out and a PDF prints it literally.
 */
import { isCustomPlaceholder, placeholderDefinition, type BlockKind, type PlaceholderValues, type TextPlaceholder } from "./placeholders.ts";

export type Segment =
  | { type: "text"; text: string }
  | { type: "unknown"; text: string }
  | { type: "block"; block: BlockKind };
/** A segment that is not a block: filled text or an unknown placeholder. */
export type TextSegment = Exclude<Segment, { type: "block" }>;

// {{ name }}: a name is anything but braces, so `{{constructor.constructor('x')()}}` is one
// (unknown) placeholder, kept literally.
const placeholderPattern = /\{\{([^{}]*)\}\}/g;

/** A placeholder as read: text to put in its place, or a block the renderer draws, or null for an unknown name. */
type Resolved = { text: string } | { block: BlockKind } | null;

/** Splits a body at its `{{name}}`s, each resolved by `resolve` (its trimmed name). */
function splitPlaceholders(body: string, resolve: (name: string) => Resolved): Segment[] {
  const segments: Segment[] = [];
  let text = "";
  let last = 0;
  const flush = () => {
    if (text) segments.push({ type: "text", text });
    text = "";
  };
  for (const match of body.matchAll(placeholderPattern)) {
    text += body.slice(last, match.index);
    last = match.index + match[0].length;
    const resolved = resolve((match[1] ?? "").trim());
    if (resolved === null) {
      flush();
      segments.push({ type: "unknown", text: match[0] });
    } else if ("block" in resolved) {
      flush();
      segments.push({ type: "block", block: resolved.block });
    } else {
      text += resolved.text;
    }
  }
  text += body.slice(last);
  flush();
  return segments;
}

/** Splits a body into text (values filled in), unknown placeholders and blocks. */
export function renderTemplate(body: string, values: PlaceholderValues): Segment[] {
  return splitPlaceholders(body, (name) => {
    const definition = placeholderDefinition(name);
    if (!definition && isCustomPlaceholder(name) && Object.hasOwn(values, name)) return { text: values[name] ?? "" };
    if (!definition) return null;
    if ("block" in definition && definition.block) return { block: definition.block };
    const known = definition.name as TextPlaceholder;
    return { text: Object.hasOwn(values, known) ? (values[known] ?? "") : "" };
  });
}

/**
 * Splits an e-mail's subject or body: a name among `offered` (the kind's, mailPlaceholdersByGroup)
 * becomes its value (nothing when the values have none), a custom field's placeholder its value
 * when the values have it (as in a PDF), any other stays as written, unknown. An e-mail is text
 * only: it has no blocks. The admin's preview and the record's composer both read it so.
 */
export function renderMailText(text: string, values: Readonly<Record<string, string | undefined>>, offered: ReadonlySet<string>): TextSegment[] {
  // The resolver never gives a block, so every segment is text or unknown.
  return splitPlaceholders(text, (name) =>
    offered.has(name) || (isCustomPlaceholder(name) && Object.hasOwn(values, name))
      ? { text: Object.hasOwn(values, name) ? (values[name] ?? "") : "" }
      : null,
  ) as TextSegment[];
}

/** The text with `insert` put in place of the selection; `caret` is where the cursor goes next. */
export function insertAt(text: string, start: number, end: number, insert: string): { text: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + insert + text.slice(to), caret: from + insert.length };
}
