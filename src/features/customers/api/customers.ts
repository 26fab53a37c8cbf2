import { z } from "zod";
import { findDuplicates, recordBaseSchema } from "@/components/records/record-api.ts";
import { recordDuplicateSchema } from "@/components/records/record-duplicates.ts";
import { customerKinds, customerStatuses, type CustomerField } from "../utils/customer-fields.ts";

/** A customer's row in the list (the module's list columns). */
export const customerRowSchema = recordBaseSchema.extend({
  name: z.string(),
  kind: z.enum(customerKinds),
  tax_number: z.string().nullable(),
  status: z.enum(customerStatuses),
  sector: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  city: z.string().nullable(),
  district: z.string().nullable(),
  tags: z.array(z.string()),
});
export type CustomerRow = z.infer<typeof customerRowSchema>;

/** A whole customer (get_customer). */
export const customerSchema = customerRowSchema.extend({
  tax_office: z.string().nullable(),
  website: z.string().nullable(),
  address: z.string().nullable(),
  description: z.string().nullable(),
});
export type Customer = z.infer<typeof customerSchema>;

/** Tags go as null when there are none (the database reads an empty array as invalid, null as none). */
export type CustomerValues = { [Field in CustomerField]: Field extends "tags" ? string[] | null : Field extends "name" ? string : string | null };

const duplicateSchema = recordDuplicateSchema({
  name: z.string(),
  tax_number: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  city: z.string().nullable(),
});
export type CustomerDuplicate = z.infer<typeof duplicateSchema>;

/** Customers likely the same as the values about to be saved (same VKN/TCKN, email, phone, or a similar name). */
export function findCustomerDuplicates(values: Partial<CustomerValues>, exclude?: string): Promise<CustomerDuplicate[]> {
  const { name, tax_number, email, phone } = values;
  return findDuplicates("find_customer_duplicates", { name, tax_number, email, phone }, duplicateSchema, exclude);
}

