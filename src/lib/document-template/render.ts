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

// {{ name }}: a name is anything but braces, so `{{constructor.constructor('x')()}}` is one
// (unknown) placeholder, kept literally.
const placeholderPattern = /\{\{([^{}]*)\}\}/g;

/** Splits a body into text (values filled in), unknown placeholders and blocks. */
export function renderTemplate(body: string, values: PlaceholderValues): Segment[] {
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
    const name = (match[1] ?? "").trim();
    const definition = placeholderDefinition(name);
    if (!definition && isCustomPlaceholder(name) && Object.hasOwn(values, name)) {
      text += values[name] ?? "";
    } else if (!definition) {
      flush();
      segments.push({ type: "unknown", text: match[0] });
    } else if ("block" in definition && definition.block) {
      flush();
      segments.push({ type: "block", block: definition.block });
    } else {
      const known = definition.name as TextPlaceholder;
      text += Object.hasOwn(values, known) ? (values[known] ?? "") : "";
    }
  }
  text += body.slice(last);
  flush();
  return segments;
}

/** The text with `insert` put in place of the selection; `caret` is where the cursor goes next. */
export function insertAt(text: string, start: number, end: number, insert: string): { text: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + insert + text.slice(to), caret: from + insert.length };
}
