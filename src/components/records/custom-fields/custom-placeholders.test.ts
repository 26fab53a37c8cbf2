import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { rpc } from "@/lib/call-rpc.ts";
import { RpcError } from "@/lib/rpc.ts";
import { renderTemplate } from "@/lib/document-template/render.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import type { CustomField } from "./custom-fields.ts";
import { enValues as en, testField, trValues as tr } from "./test-fields.ts";
import { customFieldPlaceholder, customPlaceholderTexts, customPlaceholderValues } from "./custom-placeholders.ts";

vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));

/** A declaration named by its key (its Turkish label too), first in the form unless placed. */
const field = (key: string, type: CustomField["type"], extra: Partial<CustomField> = {}): CustomField =>
  testField(type, { key, label_tr: key, position: 0, ...extra });

const sektor = field("cf_sektor_kodu", "choice", {
  label_tr: "Sektör kodu",
  options: [{ value: "a", label_tr: "İnşaat", label_en: "Construction", color: null }],
});
const customerFields = [sektor, field("cf_bayi_no", "number", { position: 1 }), field("cf_gizli", "text", { hidden: true })];
const quoteFields = [field("cf_ciro", "money", { position: 1 }), field("cf_ana_bayi", "link", { position: 2 })];


const [C1, C2, K1] = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333"];

describe("custom placeholders", () => {
  it("name the placeholder a document template prints a module's field with", () => {
    expect(customFieldPlaceholder("customers", "cf_sektor_kodu")).toBe("{{customer.cf_sektor_kodu}}");
    expect(customFieldPlaceholder("deals", "cf_x")).toBe("{{deal.cf_x}}");
    expect(customFieldPlaceholder("tasks", "cf_x")).toBeNull();
  });

  it("give every shown field of the record its text, empty when it holds none", () => {
    expect(customPlaceholderTexts("customer", customerFields, { cf_sektor_kodu: "a", cf_bayi_no: 1234.5, cf_gizli: "x" }, tr)).toEqual({
      "customer.cf_sektor_kodu": "İnşaat",
      "customer.cf_bayi_no": "1.234,5",
    });
    expect(customPlaceholderTexts("customer", customerFields, { cf_sektor_kodu: "a" }, en)["customer.cf_sektor_kodu"]).toBe("Construction");
    expect(customPlaceholderTexts("contact", customerFields, null, tr)).toEqual({ "contact.cf_sektor_kodu": "", "contact.cf_bayi_no": "" });
  });

  it("read each record's fields and values, print links by the name the record carries, and leave out what cannot be read", async () => {
    vi.mocked(rpc).mockImplementation(async (name, args) => {
      const { p_module: module, p_id: id } = args as { p_module?: string; p_id?: string };
      if (name === "list_custom_fields") {
        if (module === "customers") return { success: true, fields: customerFields, standard_fields: [] } as never;
        if (module === "quotes") return { success: true, fields: quoteFields, standard_fields: [] } as never;
        throw new RpcError("Permission denied", "permission_denied");
      }
      const base = { id, owner_id: "o", owner_name: null, created_at: "", updated_at: "" };
      if (name === "get_customer" && id === C1) return { record: { ...base, name: "Acme", cf_sektor_kodu: "a", cf_bayi_no: 7 } } as never;
      throw new RpcError("Record not found", "not_found");
    });
    const values = await customPlaceholderValues(
      new QueryClient({ defaultOptions: { queries: { retry: false } } }),
      { organizationId: "org", sessionUserId: "u" } as unknown as OrganizationScope,
      { quote: { record: { cf_ciro: 1500, cf_ana_bayi: C2, cf_ana_bayi_name: "Ana Bayi A.Ş." } }, customer: { id: C1 }, contact: { id: K1 }, deal: { id: null } },
      tr,
    );
    expect(values).toEqual({
      "quote.cf_ciro": "₺1.500",
      "quote.cf_ana_bayi": "Ana Bayi A.Ş.",
      "customer.cf_sektor_kodu": "İnşaat",
      "customer.cf_bayi_no": "7",
    });
    const printed = renderTemplate("{{customer.cf_sektor_kodu}} / {{quote.cf_ana_bayi}} / {{contact.cf_sektor_kodu}}", values);
    expect(printed).toEqual([
      { type: "text", text: "İnşaat / Ana Bayi A.Ş. / " },
      { type: "unknown", text: "{{contact.cf_sektor_kodu}}" },
    ]);
  });
});
