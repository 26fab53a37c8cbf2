import { describe, expect, it } from "vitest";
import { organizationFromSettings, organizationValues, printedPhone } from "./organization.ts";
import { placeholderDefinitions } from "./placeholders.ts";
import { sampleData, sampleOrganization } from "./sample-data.ts";

const settings = {
  name: "Demo Ticaret A.Ş.",
  legal_name: "Demo Ticaret Anonim Şirketi",
  address: "Barbaros Bulvarı No: 145 Kat: 4",
  province: "İstanbul",
  district: "Beşiktaş",
  tax_office: "Beşiktaş",
  tax_number: "2910045871",
  mersis_number: "0291004587100015",
  phone: "+902123450100",
  email: "teklif@demoticaret.com.tr",
  website: "www.demoticaret.com.tr",
  bank_accounts: [
    { iban: "TR180006200119000006672315", bank_name: "Garanti BBVA" },
    { iban: "TR080006400000112340012345", bank_name: null },
  ],
};

describe("organizationValues", () => {
  it("fills every organization placeholder the template editor offers, and only those", () => {
    const values = organizationValues(organizationFromSettings(settings, null));
    const offered = placeholderDefinitions
      .filter((definition) => definition.group === "organization" && !("block" in definition))
      .map((definition) => definition.name);
    expect(Object.keys(values).sort()).toEqual([...offered].sort());
    for (const name of offered) expect(values[name as keyof typeof values], name).not.toBe("");
  });

  it("prints the settings as a document shows them", () => {
    expect(organizationValues(organizationFromSettings(settings, null))).toEqual({
      "organization.name": "Demo Ticaret A.Ş.",
      "organization.legal_name": "Demo Ticaret Anonim Şirketi",
      "organization.address": "Barbaros Bulvarı No: 145 Kat: 4, Beşiktaş/İstanbul",
      "organization.district": "Beşiktaş",
      "organization.province": "İstanbul",
      "organization.tax_office": "Beşiktaş",
      "organization.tax_number": "2910045871",
      "organization.mersis_number": "0291004587100015",
      "organization.phone": "+90 212 345 01 00",
      "organization.email": "teklif@demoticaret.com.tr",
      "organization.website": "www.demoticaret.com.tr",
      "organization.iban": "Garanti BBVA IBAN: TR18 0006 2001 1900 0006 6723 15\nIBAN: TR08 0006 4000 0011 2340 0123 45",
    });
  });

  it("leaves what is not set empty, the legal name falling back to the name", () => {
    const values = organizationValues(organizationFromSettings({ name: "Acme" }, null));
    expect(values["organization.legal_name"]).toBe("Acme");
    expect(values["organization.address"]).toBe("");
    expect(values["organization.iban"]).toBe("");
    expect(organizationValues({ name: "X", province: "Ankara" })["organization.address"]).toBe("Ankara");
  });

  it("groups Turkish phone numbers and keeps others as stored", () => {
    expect(printedPhone("+905321112233")).toBe("+90 532 111 22 33");
    expect(printedPhone("+4930123456")).toBe("+4930123456");
    expect(printedPhone(null)).toBe("");
  });
});

describe("the template preview's data", () => {
  it("prints the organization's own details, sample data only for the record", () => {
    const organization = organizationFromSettings(settings, "data:image/png;base64,iVBORw0KGgo=");
    const { values } = sampleData(new Date(2026, 0, 15), organization);
    expect(values).toMatchObject(organizationValues(organization));
    expect(values["organization.legal_name"]).toBe("Demo Ticaret Anonim Şirketi");
    expect(values["organization.address"]).toBe("Barbaros Bulvarı No: 145 Kat: 4, Beşiktaş/İstanbul");
    expect(values["organization.tax_number"]).toBe("2910045871");
    expect(values["organization.iban"]).toContain("Garanti BBVA IBAN: TR18 0006 2001 1900 0006 6723 15");
    expect(values["contract.company_party"]).toBe("Barbaros Bulvarı No: 145 Kat: 4 adresinde bulunan Demo Ticaret A.Ş. (Vergi Dairesi / No: Beşiktaş / 2910045871)");
    expect(values["contract.company_signatory"]).toBe("Selim Satış, Demo Ticaret A.Ş.");
    // Nothing of the sample company is left.
    const printed = Object.values(values).join("\n");
    for (const sample of [sampleOrganization.name, sampleOrganization.tax_number, "Demo Yazılım", "Büyükdere", "1234567890"]) {
      expect(printed).not.toContain(sample);
    }
    // The record's fields are the sample's.
    expect(values["customer.name"]).toBe("Anadolu Yapı Malzemeleri Ltd. Şti.");
  });
});
