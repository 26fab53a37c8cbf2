import { lazy } from "react";
import type { RecordCreateFormProps, RecordCreateForms } from "@/components/records/record-forms.ts";

const ContactFormModal = lazy(async () => ({
  default: (await import("@/features/contacts/components/ContactFormModal.tsx")).ContactFormModal,
}));

/** A new contact on its customer's page: the customer fixed, the page kept once created. */
function ContactCreateForm({ links, fixed, onClose }: RecordCreateFormProps) {
  return (
    <ContactFormModal customerId={links.customer_id ?? undefined} customerFixed={fixed === "customer_id"} onCreated={onClose}
      onClose={onClose} />
  );
}

/**
 * The create forms record pages open in place (src/components/records/record-forms.ts), each
 * loaded when first opened. A module left out is created from its create route.
 */
export const recordCreateForms: RecordCreateForms = { contacts: (props) => <ContactCreateForm {...props} /> };
