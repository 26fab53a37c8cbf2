import { describe, expect, it, vi } from "vitest";
import { listColumns } from "./custom-fields/list-cells.ts";
import { testStandardField } from "./custom-fields/test-fields.ts";
import { linkColumn, linkedRecord, linkNameKey, personName, pickerData } from "./record-links.ts";

vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));

describe("linkNameKey", () => {
  it("names a link column's record as the engine does", () => {
    expect(linkNameKey("customer_id")).toBe("customer_name");
    expect(linkNameKey("deal_id")).toBe("deal_name");
    expect(linkNameKey("previous_contract_id")).toBe("previous_contract_name");
  });
});

describe("linkedRecord", () => {
  it("gives the linked record's id and name", () => {
    expect(linkedRecord({ customer_id: "c1", customer_name: "Çelik Yapı" }, "customer_id")).toEqual({ id: "c1", name: "Çelik Yapı" });
  });
  it("has no name for a record the caller may not see, and nothing when none is linked", () => {
    expect(linkedRecord({ customer_id: "c1", customer_name: null }, "customer_id")).toEqual({ id: "c1", name: null });
    expect(linkedRecord({ customer_id: "c1" }, "customer_id")).toEqual({ id: "c1", name: null });
    expect(linkedRecord({ customer_id: null, customer_name: null }, "customer_id")).toBeNull();
    expect(linkedRecord({}, "customer_id")).toBeNull();
  });
});

describe("linkColumn", () => {
  type Row = { customer_id: string | null; customer_name?: string | null };
  const declared = testStandardField("customer_id", "link", { label_tr: "Müşteri", label_en: "Customer", link_module: "customers", sortable: true });
  const declarations = { standard: [declared], custom: [] };
  const [column] = listColumns<Row>("deals", [linkColumn<Row>({ key: "customer_id", module: "customers" })], declarations, "en");
  it("takes its declaration's label in the interface's language, and a key the module does not declare is refused", () => {
    expect(column.label).toBe("Customer");
    expect(() => listColumns<Row>("deals", [linkColumn<Row>({ key: "contact_id", module: "contacts" })], declarations, "tr")).toThrow(
      "deals.contact_id is not a declared field",
    );
  });
  it("sorts by the link when declared sortable (the engine sorts it by name) and exports the name, never the id", () => {
    expect(column.sort).toBe("customer_id");
    expect(listColumns<Row>("deals", [linkColumn<Row>({ key: "customer_id", module: "customers" })], { standard: [{ ...declared, sortable: false }], custom: [] }, "tr")[0].sort).toBeUndefined();
    expect(column.exportValue?.({ customer_id: "c1", customer_name: "Ağa Ticaret" })).toBe("Ağa Ticaret");
    expect(column.exportValue?.({ customer_id: "c1", customer_name: null })).toBeNull();
    expect(column.exportValue?.({ customer_id: null })).toBeNull();
  });
});

describe("personName", () => {
  it("joins first and last name", () => {
    expect(personName({ first_name: "Deniz", last_name: "Işık" })).toBe("Deniz Işık");
    expect(personName({ first_name: null, last_name: null })).toBe("—");
  });
});

describe("pickerData", () => {
  const headings = { preferred: "Seçili müşterinin kişileri", others: "Diğer kişiler" };
  const deniz = { value: "k1", label: "Deniz Işık", description: "Çelik Yapı" };
  const ece = { value: "k2", label: "Ece Ak", description: "Ağa Ticaret" };
  const nobody = { value: "k3", label: "Fatma Öz", description: null };

  it("is one flat list, each with its company, when nothing is preferred", () => {
    expect(pickerData(null, [deniz, nobody], headings)).toEqual([
      { value: "k1", label: "Deniz Işık · Çelik Yapı" },
      { value: "k3", label: "Fatma Öz" },
    ]);
  });
  it("puts the preferred records first and does not repeat them among the others", () => {
    expect(pickerData([deniz], [ece, deniz, nobody], headings)).toEqual([
      { group: "Seçili müşterinin kişileri", items: [{ value: "k1", label: "Deniz Işık · Çelik Yapı" }] },
      { group: "Diğer kişiler", items: [{ value: "k2", label: "Ece Ak · Ağa Ticaret" }, { value: "k3", label: "Fatma Öz" }] },
    ]);
  });
  it("leaves out an empty group", () => {
    expect(pickerData([], [ece], headings)).toEqual([{ group: "Diğer kişiler", items: [{ value: "k2", label: "Ece Ak · Ağa Ticaret" }] }]);
    expect(pickerData([deniz], [deniz], headings)).toEqual([
      { group: "Seçili müşterinin kişileri", items: [{ value: "k1", label: "Deniz Işık · Çelik Yapı" }] },
    ]);
  });
});
