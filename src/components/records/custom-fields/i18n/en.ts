import type { tr } from "./tr.ts";

/** English texts of custom fields in the record forms and pages. */
export const en: typeof tr = {
  customFields: {
    form: {
      legend: "Custom fields",
      choose: "Choose",
    },
    detail: {
      title: "Custom fields",
      edit: "Edit custom fields",
      editTitle: "Edit custom fields",
      save: "Save",
      saved: "Custom fields saved.",
    },
  },
};
