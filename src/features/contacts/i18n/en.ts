import type { tr } from "./tr.ts";

/** English texts of the contacts module, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  modules: {
    contacts: {
      title: "Contacts",
      description: "The people at your customers and how to reach them.",
      emptyTitle: "No contacts yet",
      detailTitle: "Contact Details",
      detailDescription: "A contact's details and history.",
      backToList: "Back to contacts",
    },
  },
};
