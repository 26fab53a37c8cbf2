import type { tr } from "./tr.ts";

/** English texts of the customers module, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  modules: {
    customers: {
      title: "Customers",
      description: "The companies you work with and their details.",
      emptyTitle: "No customers yet",
      detailTitle: "Customer Details",
      detailDescription: "A customer's details, contacts and deals.",
      backToList: "Back to customers",
      emptyDescription: "Customers will be listed here once they are added.",
      list: {
        label: "Customer list",
        search: "Search",
        searchPlaceholder: "Customer name",
        total: "{{count}} customers in total",
        noMatch: "No customer matches your search.",
        loadError: "Customers could not be loaded.",
        ownOnly: "Your role lists only the customers you own.",
        columns: {
          name: "Customer",
          owner: "Owner",
          createdAt: "Added on",
        },
      },
    },
  },
};
