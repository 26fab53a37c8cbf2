import type { tr } from "./tr.ts";

/** English texts of the home page, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  home: {
    welcome: "Welcome, {{name}}",
    intro: "Choose where you want to work.",
    modulesLabel: "Sections",
    noOrganization: "You are not linked to a company yet.",
    loadError: "Your user details could not be loaded.",
  },
};
