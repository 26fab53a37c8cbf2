/**
 * The create forms a record page opens in place (a new contact on its customer's page): the
 * app supplies them (src/app), since a feature may not import another's form; a module without
 * one here is created from its create route (newRecordPath).
 */
import { createContext, useContext, type ReactNode } from "react";
import type { LinkColumn, RecordLinks, RelatedModule } from "./related-records.ts";

/** What a module's create form is given by the record page it opens on. */
export interface RecordCreateFormProps {
  /** The links the new record starts with. */
  links: RecordLinks;
  /** The link to the page's record: shown, not changed. */
  fixed: LinkColumn;
  /** Closes the form: cancelled, or the record created (the page stays; its lists refresh). */
  onClose(): void;
}

/** The create forms the app supplies, by module: each renders its form (a modal) with these props. */
export type RecordCreateForms = Partial<Record<RelatedModule, (props: RecordCreateFormProps) => ReactNode>>;

export const RecordCreateFormsContext = createContext<RecordCreateForms>({});

/** What renders the form that creates a module's record in place, if the app supplies one. */
export function useRecordCreateForm(module: RelatedModule): ((props: RecordCreateFormProps) => ReactNode) | undefined {
  return useContext(RecordCreateFormsContext)[module];
}
