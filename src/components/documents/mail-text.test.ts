import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import type { PlaceholderValues } from "@/lib/document-template/placeholders.ts";
import { fillMailText, mailErrorCodeKey, mailFailureKey, senderValues } from "./mail-text.ts";

describe("fillMailText", () => {
  const values = { "quote.number": "TKL-2026-00001", "contact.name": "Ali Işık", "totals.total": "1.200,00 ₺" } as PlaceholderValues;
  const sender = senderValues({ first_name: "Ayşe", last_name: "Yılmaz", email: "ayse@ornek.com.tr" });

  it("fills the kind's placeholders as the PDF does and a custom field's, keeps any other as the preview shows it", () => {
    const withCustom = { ...values, "customer.cf_bayi": "Ana Bayi" } as PlaceholderValues;
    expect(fillMailText("quote", "Sayın {{contact.name}}, {{ quote.number }}: {{totals.total}} {{customer.cf_bayi}}{{items_table}} {{contract.number}} {{nope}}\n{{ sender.name }} {{sender.email}}", withCustom, sender)).toBe(
      "Sayın Ali Işık, TKL-2026-00001: 1.200,00 ₺ Ana Bayi{{items_table}} {{contract.number}} {{nope}}\nAyşe Yılmaz ayse@ornek.com.tr",
    );
  });

  it("leaves nothing where the record has no value, and never evaluates a name", () => {
    expect(fillMailText("quote", "[{{quote.notes}}] {{constructor.constructor('x')()}}", values, sender)).toBe("[] {{constructor.constructor('x')()}}");
  });

  it("names the sender by e-mail when the profile has no name", () => {
    expect(senderValues({ first_name: null, last_name: " ", email: "a@b.test" })["sender.name"]).toBe("a@b.test");
  });

  it("gives the sender's phone from the profile, grouped as people read it; none when the profile has none", () => {
    expect(senderValues({ first_name: "Ayşe", last_name: null, email: "a@b.test", phone: "+905321112233" })["sender.phone"]).toBe("+90 532 111 22 33");
    expect(sender["sender.phone"]).toBe("");
  });
});

describe("mail failures", () => {
  it("words each refusal by its code, anything else as unknown", () => {
    expect(mailFailureKey(new RpcError("x", "smtp_auth_failed"))).toBe("documentKit.mail.errors.smtp_auth_failed");
    expect(mailFailureKey(new RpcError("x", "what"))).toBe("documentKit.mail.errors.unknown");
    expect(mailErrorCodeKey("smtp_unreachable")).toBe("documentKit.mail.errors.smtp_unreachable");
    expect(mailErrorCodeKey(null)).toBe("documentKit.mail.errors.unknown");
  });
});
