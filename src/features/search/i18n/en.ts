import type { tr } from "./tr.ts";

/** English texts of the header's search, typed against the Turkish ones. */
export const en: typeof tr = {
  search: {
    button: "Search",
    buttonLabel: "Search: records and quick create",
    shortcut: "Shortcut: {{keys}}",
    placeholder: "Customer, contact, deal, quote no., contract, document, task…",
    inputLabel: "Search every module",
    hint: "Type at least 2 characters. Pick with the arrow keys, open with Enter.",
    searching: "Searching…",
    empty: "No record matches “{{query}}”.",
    error: "The search failed. Please try again shortly.",
    commands: "Quick create",
    commandLabels: {
      customers: "New customer",
      deals: "New deal",
      quotes: "New quote",
      tasks: "New task",
    },
    untitled: "Untitled record",
  },
};
