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
Bu sözleşme, {{organization.address}} adresinde bulunan {{organization.name}} (bundan sonra "Şirket") ile {{customer.address}} adresinde bulunan {{customer.name}} (Vergi Dairesi / No: {{customer.tax_office}} / {{customer.tax_number}}; bundan sonra "Müşteri") arasında aşağıdaki koşullarla imzalanmıştır.

2. SÜRE
Sözleşme {{contract.start_date}} tarihinde başlar ve {{contract.end_date}} tarihinde sona erer.
Yenileme: {{contract.renewal_terms}}

3. BEDEL
Sözleşme bedeli {{contract.value}} (Yalnız: {{contract.value_in_words}}) olup vergiler ayrıca hesaplanır.

4. YÜRÜRLÜK
Taraflarca okunup kabul edilerek imzalanmıştır.

Şirket adına: {{owner.name}}, {{organization.name}}
İmza tarihi: {{contract.company_signed_on}}

Müşteri adına: {{contact.name}}, {{customer.name}}
İmza tarihi: {{contract.customer_signed_on}}`;

export const defaultTemplateBodies: Readonly<Record<TemplateKind, string>> = { quote: quoteBody, contract: contractBody };
