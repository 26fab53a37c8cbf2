import type { tr } from "./tr.ts";

/** English texts of the session kernel, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  auth: {
    signOut: {
      button: "Sign out",
    },
  },
  shell: {
    noOrganization: "No company selected",
    contextLoadError: "Your user details could not be loaded.",
  },
};
