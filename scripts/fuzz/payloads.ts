/**
 * Hostile values for the fuzzer (fast-check arbitraries): per argument type the right JSON
 * type with hostile content most of the time (so the function's own checks are reached),
 * and sometimes a wrong type or a value PostgreSQL cannot hold (then a clean 400 from the
 * Data API is a fair answer too). Each generated value says which of the two it is.
 */
import fc from "fast-check";
import type { RpcArgument } from "./catalogue.ts";

/** A generated value and whether it fits its argument's type. */
export interface Generated {
  value: unknown;
  /** A wrong JSON type, or a value the type cannot hold (NUL, an out-of-range number). */
  mistyped: boolean;
}

const typed = (value: unknown): Generated => ({ value, mistyped: false });
const mistyped = (value: unknown): Generated => ({ value, mistyped: true });

/** Texts people and attackers send: Turkish letters, combining marks, direction marks, SQL and path fragments, markup. */
export const hostileTexts = [
  "",
  " ",
  "İstanbul",
  "ıİiI ŞşĞğÜüÖöÇç",
  "i\u0307",
  "e\u0301\u0301\u0301",
  "\u202Eevil\u202C",
  "\u200F\u200E",
  "\uFEFFbom",
  "👩‍👩‍👧‍👦",
  "'; drop table private.profiles; --",
  "' or '1'='1",
  "\\'; select pg_sleep(5); --",
  "$$; select 1; $$",
  "%' or 1=1 --",
  "../../../etc/passwd",
  "..\\..\\windows\\system32",
  "/storage/v1/object/documents/../../secret",
  "<script>alert(1)</script>",
  "=cmd|' /C calc'!A0",
  "{\"success\": true}",
  "null",
  "undefined",
  "NaN",
  "-1",
  "9999999999999999999999",
  "admin@demo.test",
  "ADMIN@DEMO.TEST ",
  "1234567890",
  "org_demo",
  "customers",
  "private.profiles",
  "auth.users",
];

/** Words the RPCs expect (modules, kinds, modes, keys, sorts, stages, roles, custom field types and keys), so calls get past their first check. */
export const vocabulary = [
  "customers", "contacts", "deals", "tasks", "quotes", "contracts", "documents", "products", "import_export", "admin",
  "customer", "contact", "deal", "task", "quote", "contract", "create", "upsert", "update", "name", "email", "tax_number",
  "external_id", "title", "created_at", "updated_at", "due_at", "amount", "lead", "active", "passive", "company", "person",
  "new", "qualified", "proposal", "negotiation", "won", "lost", "open", "done", "user", "admin", "manager", "demo", "acme",
  "TRY", "USD", "EUR", "tr", "en", "view", "edit", "delete", "export", "import", "all", "own", "sales",
  "text", "number", "money", "boolean", "choice", "multi_choice", "link", "cf_sektor", "cf_bolge",
];

/** Keys the RPCs and Edge Functions read, for objects whose fields matter. */
export const fieldNames = [
  "id", "name", "email", "emails", "phone", "phones", "tax_number", "kind", "status", "owner", "owner_id", "organization_id",
  "organization_slug", "user_id", "role", "title", "stage", "amount", "currency", "customer_id", "contact_id", "deal_id",
  "first_name", "last_name", "password", "new_password", "external_id", "values", "row", "tags", "due_at", "valid_until",
  "items", "quantity", "unit_price", "vat_rate", "discount", "search", "filters", "sort", "limit", "offset", "action", "slug",
  "permissions", "deal_stages", "mime_type", "size_bytes", "file_name", "path", "module", "record_id",
  "key", "type", "label_tr", "label_en", "options", "value", "position", "hidden", "listed", "filterable", "searchable", "link_module",
  "token", "language",
];

/**
 * Objects the app sends whole, whose fields must all be right together (a custom field's
 * declaration), so that the calls taking them also succeed now and then: a field created
 * under a key of the vocabulary, changed (a new type, fewer options), and created from a label.
 */
export const knownObjects = [
  { key: "cf_sektor", label_tr: "Sektör", type: "text", filterable: true, searchable: true },
  { key: "cf_sektor", type: "number" },
  { key: "cf_bolge", label_tr: "Bölge", type: "choice", options: [{ value: "marmara", label_tr: "Marmara" }, { value: "ege", label_tr: "Ege" }] },
  { key: "cf_bolge", options: [{ value: "ege", label_tr: "Ege" }], listed: true },
  { label_tr: "Bütçe", type: "money", position: 3 },
];

const hugeText = fc.constantFrom("x".repeat(100_001), "İ".repeat(40_000), "🙂".repeat(30_000));
const nulText = fc.constantFrom("a\u0000b", "\u0000");

/** A text: mostly hostile constants and random Unicode, sometimes huge. */
export function textArb(ids: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...hostileTexts) },
    { weight: 4, arbitrary: fc.constantFrom(...vocabulary) },
    { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }).filter((text) => !text.includes("\u0000")) },
    { weight: 2, arbitrary: ids.length > 0 ? fc.constantFrom(...ids) : fc.uuid() },
    { weight: 1, arbitrary: hugeText },
  );
}

/** Any JSON value, with hostile texts and known ids among its strings and field names among its keys. */
export function jsonArb(ids: readonly string[]): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(
    textArb(ids),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(2147483648, -2147483649, 1e20, -0.5, 0),
  );
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.array(tie("value"), { maxLength: 6 }),
      fc.dictionary(fc.oneof(fc.constantFrom(...fieldNames), fc.string({ maxLength: 8 })), tie("value"), { maxKeys: 6 }),
    ),
  }));
  return fc.oneof(
    { weight: 6, arbitrary: value },
    { weight: 1, arbitrary: fc.constant(Array.from({ length: 20_000 }, (_, index) => index)) },
    { weight: 1, arbitrary: fc.constant(Object.fromEntries(fieldNames.map((name) => [name, "x".repeat(20_000)]))) },
  );
}

function uuidArb(ids: readonly string[]): fc.Arbitrary<Generated> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ids).map(typed) },
    { weight: 2, arbitrary: fc.uuid().map(typed) },
    { weight: 1, arbitrary: fc.constant("00000000-0000-0000-0000-000000000000").map(typed) },
    { weight: 1, arbitrary: textArb([]).map(mistyped) },
  );
}

function integerArb(): fc.Arbitrary<Generated> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.oneof(fc.integer({ min: -5, max: 100 }), fc.constantFrom(0, -1, 1000, 100_000, 2147483647, -2147483648)).map(typed) },
    { weight: 1, arbitrary: fc.constantFrom(2147483648, 1e20, 1.5, "abc", "1; drop table x", true).map(mistyped) },
  );
}

function booleanArb(): fc.Arbitrary<Generated> {
  return fc.oneof({ weight: 4, arbitrary: fc.boolean().map(typed) }, { weight: 1, arbitrary: fc.constantFrom("maybe", 2, [true]).map(mistyped) });
}

function timestampArb(): fc.Arbitrary<Generated> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.date({ min: new Date("1900-01-01"), max: new Date("2200-01-01"), noInvalidDate: true }).map((date) => typed(date.toISOString())) },
    { weight: 1, arbitrary: fc.constantFrom("infinity", "-infinity", "2026-11-26T10:00:00+03:00").map(typed) },
    { weight: 1, arbitrary: fc.constantFrom("31.12.2026", "yesterday", "2026-13-45", "", 12).map(mistyped) },
  );
}

/** Whether a JSON value holds a text PostgreSQL cannot store (NUL). */
function holdsNul(value: unknown): boolean {
  return JSON.stringify(value)?.includes("\\u0000") ?? false;
}

/** A value for an argument of the given PostgreSQL type. */
export function argumentArb(type: string, ids: readonly string[]): fc.Arbitrary<Generated> {
  const base = type.replace(/\[\]$/, "");
  const isArray = type.endsWith("[]");
  const nul = nulText.map(mistyped);
  if (isArray) {
    const element = argumentArb(base, ids);
    return fc.oneof(
      { weight: 4, arbitrary: fc.array(element, { maxLength: 8 }).map((items) => ({ value: items.map((item) => item.value), mistyped: items.some((item) => item.mistyped) })) },
      { weight: 1, arbitrary: fc.constant(mistyped(Array.from({ length: 50_000 }, () => "00000000-0000-4000-8000-000000000000"))) },
      { weight: 1, arbitrary: fc.constantFrom("{}", "not an array", 5).map(mistyped) },
    );
  }
  const value = ((): fc.Arbitrary<Generated> => {
    switch (base) {
      case "uuid":
        return uuidArb(ids);
      case "integer":
      case "bigint":
      case "smallint":
      case "numeric":
        return integerArb();
      case "boolean":
        return booleanArb();
      case "timestamp with time zone":
      case "date":
        return timestampArb();
      case "json":
      case "jsonb":
        // Every json argument here takes an object or an array; a bare string is a wrong type
        // (and the local stack's drivers pass one to PostgreSQL unquoted: a 400 22P02).
        return jsonArb(ids).map((json) => (holdsNul(json) || typeof json === "string" ? mistyped(json) : typed(json)));
      default:
        return fc.oneof({ weight: 8, arbitrary: textArb(ids).map(typed) }, { weight: 1, arbitrary: nul }, { weight: 1, arbitrary: fc.integer().map(typed) });
    }
  })();
  return fc.oneof({ weight: 9, arbitrary: value }, { weight: 1, arbitrary: fc.constant(typed(null)) });
}

/**
 * A plausible value for an argument of the given type: what the app itself would send (a
 * known word, a small number, a known id, an object of known fields), so that calls get
 * past their checks and the successes are tested too.
 */
export function plausibleArb(type: string, ids: readonly string[]): fc.Arbitrary<Generated> {
  const base = type.replace(/\[\]$/, "");
  if (type.endsWith("[]")) return fc.array(plausibleArb(base, ids), { maxLength: 3 }).map((items) => typed(items.map((item) => item.value)));
  switch (base) {
    case "uuid":
      return fc.constantFrom(...ids).map(typed);
    case "integer":
    case "bigint":
    case "smallint":
    case "numeric":
      return fc.integer({ min: 0, max: 50 }).map(typed);
    case "boolean":
      return fc.boolean().map(typed);
    case "timestamp with time zone":
    case "date":
      return fc.date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true }).map((date) => typed(date.toISOString()));
    case "json":
    case "jsonb":
      return fc
        .oneof(
          { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...fieldNames), fc.oneof(fc.constantFrom(...vocabulary), fc.constantFrom(...ids), fc.integer({ min: 0, max: 1000 }), fc.boolean()), { maxKeys: 5 }) },
          { weight: 1, arbitrary: fc.constantFrom<object>(...knownObjects) },
        )
        .map(typed);
    default:
      return fc.oneof(fc.constantFrom(...vocabulary), fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 })).map(typed);
  }
}

/**
 * The arguments of one call: each named argument (an optional one sometimes left out, a
 * required one rarely), hostile or, in a third of the calls, plausible; and now and then an
 * argument the function does not have.
 */
export function argumentsArb(args: readonly RpcArgument[], ids: readonly string[]): fc.Arbitrary<{ body: Record<string, unknown>; mistyped: boolean }> {
  return fc.oneof({ weight: 2, arbitrary: callArb(args, ids, argumentArb) }, { weight: 1, arbitrary: callArb(args, ids, plausibleArb) });
}

function callArb(
  args: readonly RpcArgument[],
  ids: readonly string[],
  valueArb: (type: string, ids: readonly string[]) => fc.Arbitrary<Generated>,
): fc.Arbitrary<{ body: Record<string, unknown>; mistyped: boolean }> {
  const entries = args.map((argument) =>
    fc.oneof(
      { weight: argument.optional ? 3 : 12, arbitrary: valueArb(argument.type, ids).map((generated) => ({ name: argument.name, ...generated })) },
      { weight: 1, arbitrary: fc.constant(null) },
    ),
  );
  return fc.tuple(fc.tuple(...entries), fc.option(fc.constantFrom("p_organization_id", "p_role", "organization_id", "user_id"), { freq: 10 }), fc.uuid())
    .map(([generated, extra, extraValue]) => {
      const present = generated.filter((entry): entry is { name: string; value: unknown; mistyped: boolean } => entry !== null);
      const body = Object.fromEntries(present.map((entry) => [entry.name, entry.value]));
      if (extra && !(extra in body)) body[extra] = extraValue;
      return { body, mistyped: present.some((entry) => entry.mistyped) };
    });
}

/** The actions the Edge Functions know (password-reset's request and complete among them), and some they do not. */
const edgeActions = ["list", "create", "update", "delete", "lock", "unlock", "reset_password", "analyze", "users", "transfer", "upload", "download", "sign", "get", "request", "complete", "", "__proto__", "constructor"];

/** An Edge Function's JSON body: an action with fields of the names the functions read, or any JSON at all. */
export function edgeBodyArb(ids: readonly string[]): fc.Arbitrary<{ body: unknown; mistyped: boolean }> {
  const fields = fc.dictionary(fc.constantFrom(...fieldNames), fc.oneof(jsonArb(ids), fc.constantFrom(...ids)), { maxKeys: 8 });
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...edgeActions), fields).map(([action, rest]) => ({ ...rest, action })) },
    { weight: 1, arbitrary: jsonArb(ids) },
  ).map((body) => ({ body, mistyped: holdsNul(body) }));
}
