import type { tr } from "./tr.ts";

/** English texts of the import/export page, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  modules: {
    importExport: {
      title: "Import/Export",
      description: "Import records from a file and export them to a file.",
      emptyTitle: "No imports or exports yet",
    },
  },
};
