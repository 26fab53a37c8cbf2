import type { tr } from "./tr.ts";

/** English texts of the module registry and guard, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  modules: {
    recordNotFound: "Record not found",
    recordNotFoundDescription: "There is no record at this address. Go back to the list to choose another one.",
  },
  permissions: {
    loadError: "Your permissions could not be loaded.",
    deniedTitle: "You have no access to {{module}}",
    deniedDescription: "Your role does not allow you to view this module. Ask your organization's admin if you need access.",
  },
};
