/**
 * The bodies used when an organization has no default template of a kind (Turkish, plain
 * text with placeholders from the fixed list). Admins may also start a template from them.
 */
import type { TemplateKind } from "@/lib/document-template/placeholders.ts";

const quoteBody = `Teklif No: {{quote.number}} (Revizyon {{quote.revision}})
Tarih: {{quote.date}}
Geçerlilik Tarihi: {{quote.valid_until}}

Sayın {{customer.name}}
{{customer.address}}
Vergi Dairesi / No: {{customer.tax_office}} / {{customer.tax_number}}
İlgili Kişi: {{contact.name}} {{contact.phone}} {{contact.email}}

Talebiniz üzerine hazırladığımız teklifimizi bilgilerinize sunarız.

{{items_table}}
{{vat_breakdown}}
{{totals_table}}
Yalnız: {{totals.total_in_words}}

Para Birimi: {{quote.currency}}
Ödeme Koşulları: {{quote.payment_terms}}
Notlar: {{quote.notes}}

Saygılarımızla,
{{owner.name}}
{{organization.name}}`;

const contractBody = `{{contract.title}}
Sözleşme No: {{contract.number}}
Sözleşme Türü: {{contract.type}}

1. TARAFLAR
Bu sözleşme, {{contract.company_party}} (bundan sonra "Şirket") ile {{contract.customer_party}} (bundan sonra "Müşteri") arasında aşağıdaki koşullarla imzalanmıştır.

2. SÜRE
{{contract.term}}
Yenileme: {{contract.renewal_terms}}

3. BEDEL
{{contract.value_terms}}

4. YÜRÜRLÜK
Taraflarca okunup kabul edilerek imzalanmıştır.

Şirket adına: {{contract.company_signatory}}
İmza tarihi: {{contract.company_signed_on}}

Müşteri adına: {{contract.customer_signatory}}
İmza tarihi: {{contract.customer_signed_on}}`;

export const defaultTemplateBodies: Readonly<Record<TemplateKind, string>> = { quote: quoteBody, contract: contractBody };
