import type { tr } from "./tr.ts";

/** English texts of the quotes module, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  modules: {
    quotes: {
      title: "Quotes",
      description: "Price quotes prepared for customers.",
      emptyTitle: "No quotes yet",
    },
  },
};
