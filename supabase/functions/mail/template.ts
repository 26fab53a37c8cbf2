/**
 * An e-mail template's text as sent by the functions that send without a person's composer (a
 * reset link, a notification digest): each {{name}} the sending gives a value replaced by it,
 * any other left as written (as the admin's preview shows it). Only own values count: a name
 * like {{constructor}} is never looked up on an object's prototype.
 */
const placeholder = /\{\{\s*([a-z_]+(?:\.[a-z_]+)*)\s*\}\}/g;

/** The template's text with the placeholders of `values` filled in. */
export function fillTemplate(text: string, values: Record<string, string>): string {
  return text.replace(placeholder, (whole, name: string) => (Object.hasOwn(values, name) ? values[name] : whole));
}
