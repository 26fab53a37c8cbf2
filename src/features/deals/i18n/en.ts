import type { tr } from "./tr.ts";

/** English texts of the deals module, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  modules: {
    deals: {
      title: "Deals",
      description: "Sales opportunities and their stages.",
      emptyTitle: "No deals yet",
      detailTitle: "Deal Details",
      detailDescription: "A deal's amount, stage and history.",
      backToList: "Back to deals",
    },
  },
};
