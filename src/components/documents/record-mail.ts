/**
 * A quote's or contract's e-mail (issue 27): the organization's template of the kind in the
 * UI language (get_mail_template), the addresses of the customer's contacts to pick from,
 * and the mail function's send_record (the database checks the caller, the record and the
 * document; a quote is marked sent once the server accepted the message).
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { recordKeys, recordPageSchema, useInvalidateRecords } from "@/components/records/record-api.ts";
import { rpc } from "@/lib/call-rpc.ts";
import { invokePrivileged } from "@/lib/privileged-functions.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";

import type { RecordMailKind } from "./mail-text.ts";

const templateSchema = z.object({ success: z.literal(true), template: z.object({ subject: z.string(), body: z.string() }) });

/** The organization's (or the product's) template of a kind in a language. */
export function useMailTemplate(kind: RecordMailKind, language: "tr" | "en") {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: [...queryKeys.organization(scope, "mail-templates"), kind, language],
    queryFn: async () => (await rpc("get_mail_template", { p_kind: kind, p_language: language }, templateSchema)).template,
  });
}

const contactSchema = z.object({
  id: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  emails: z.array(z.object({ value: z.string() })).catch([]),
});

/** The customer's contacts' e-mail addresses the caller may see ({value: address, label: "Name <address>"}), for the recipients' list. */
export function useCustomerAddresses(customerId: string | null) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: [...recordKeys.all(scope, "contacts"), "mail-addresses", customerId],
    enabled: customerId !== null,
    queryFn: async () => {
      const page = await rpc("list_contacts", { p_filters: { customer_id: customerId }, p_limit: 200 }, recordPageSchema(contactSchema));
      return page.records.flatMap((contact) => {
        const name = [contact.first_name, contact.last_name].filter(Boolean).join(" ");
        return contact.emails.filter((email) => email.value.trim()).map((email) => ({ value: email.value.trim(), label: name ? `${name} <${email.value.trim()}>` : email.value.trim() }));
      });
    },
  });
}

export interface RecordMailInput {
  module: "quotes" | "contracts";
  record_id: string;
  kind: RecordMailKind;
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  document_id: string;
  /** A quote's updated_at as read (send_quote's stale check). */
  updated_at?: string;
}

/** Sends the e-mail through the mail function; afterwards the record (a quote now sent) and its customer's timeline are read again. */
export function useSendRecordMail(module: "quotes" | "contracts") {
  const invalidate = useInvalidateRecords(module);
  const invalidateCustomers = useInvalidateRecords("customers");
  return useMutation({
    mutationFn: (input: RecordMailInput) => invokePrivileged("mail", { action: "send_record", ...input }),
    onSettled: async () => {
      await Promise.all([invalidate(), invalidateCustomers()]);
    },
  });
}
