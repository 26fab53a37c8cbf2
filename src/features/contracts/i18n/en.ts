import type { tr } from "./tr.ts";

/** English texts of the contracts module, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  modules: {
    contracts: {
      title: "Contracts",
      description: "Contracts with customers and their terms.",
      emptyTitle: "No contracts yet",
    },
  },
};
