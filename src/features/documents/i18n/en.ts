import type { tr } from "./tr.ts";

/** English texts of the documents module, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  modules: {
    documents: {
      title: "Documents",
      description: "Files and documents attached to records.",
      emptyTitle: "No documents yet",
    },
  },
};
