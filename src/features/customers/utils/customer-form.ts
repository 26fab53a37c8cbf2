/**
 * The customer form: its values on screen, the browser's own check (the VKN or TCKN checksum
 * by kind, private.prepare_customer's rule; the other fields' rules come from their
 * declarations, custom-fields/use-custom-fields-form.ts) and the values sent to the database.
 */
import { z } from "zod";
import { fieldErrorKey } from "@/components/records/record-form.ts";
import { isValidTckn, isValidVkn, normalizePhone } from "@/lib/turkish-identifiers.ts";
import type { Customer, CustomerValues } from "../api/customers.ts";
import { customerKinds, customerStatuses } from "./customer-fields.ts";

export const customerFormSchema = z
  .object({
    name: z.string(),
    kind: z.enum(customerKinds),
    tax_number: z.string(),
    tax_office: z.string(),
    sector: z.string(),
    status: z.enum(customerStatuses),
    phone: z.string(),
    email: z.string(),
    website: z.string(),
    city: z.string(),
    district: z.string(),
    address: z.string(),
    tags: z.string(),
    description: z.string(),
  })
  .superRefine((values, context) => {
    const taxNumber = values.tax_number.replace(/\s/g, "");
    if (taxNumber !== "") {
      if (values.kind === "company" && !isValidVkn(taxNumber)) {
        context.addIssue({ code: "custom", path: ["tax_number"], message: fieldErrorKey("invalid_vkn") });
      } else if (values.kind === "person" && !isValidTckn(taxNumber)) {
        context.addIssue({ code: "custom", path: ["tax_number"], message: fieldErrorKey("invalid_tckn") });
      }
    }
  });
export type CustomerFormValues = z.infer<typeof customerFormSchema>;

export const emptyCustomerForm: CustomerFormValues = {
  name: "",
  kind: "company",
  tax_number: "",
  tax_office: "",
  sector: "",
  status: "lead",
  phone: "",
  email: "",
  website: "",
  city: "",
  district: "",
  address: "",
  tags: "",
  description: "",
};

/** A saved customer in the form. */
export function customerFormOf(customer: Customer): CustomerFormValues {
  return {
    name: customer.name,
    kind: customer.kind,
    tax_number: customer.tax_number ?? "",
    tax_office: customer.tax_office ?? "",
    sector: customer.sector ?? "",
    status: customer.status,
    phone: customer.phone ?? "",
    email: customer.email ?? "",
    website: customer.website ?? "",
    city: customer.city ?? "",
    district: customer.district ?? "",
    address: customer.address ?? "",
    tags: customer.tags.join(", "),
    description: customer.description ?? "",
  };
}

const orNull = (value: string) => (value.trim() === "" ? null : value.trim());

function tagsOf(text: string): string[] | null {
  const tags = text
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
  return tags.length === 0 ? null : tags;
}

/** What the database is sent: blanks as null, the phone normalised, tags split on commas. */
export function customerValuesOf(form: CustomerFormValues): CustomerValues {
  return {
    name: form.name.trim(),
    kind: form.kind,
    tax_number: orNull(form.tax_number.replace(/\s/g, "")),
    tax_office: orNull(form.tax_office),
    sector: orNull(form.sector),
    status: form.status,
    phone: form.phone.trim() === "" ? null : (normalizePhone(form.phone) ?? form.phone.trim()),
    email: orNull(form.email),
    website: orNull(form.website),
    city: orNull(form.city),
    district: orNull(form.district),
    address: orNull(form.address),
    tags: tagsOf(form.tags),
    description: orNull(form.description),
  };
}
