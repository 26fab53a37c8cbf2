import type { tr } from "./tr.ts";

/** English texts of the shared rules, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  passwordRules: {
    tooShort: "The password must be at least 6 characters long.",
    tooLong: "The password may be at most 72 bytes long (letters such as ş, ğ or ü count as 2 bytes).",
    common: "This password is too common; choose a stronger one.",
    same: "The new password must differ from the current one.",
  },
  organizations: {
    roles: {
      admin: "Administrator",
      manager: "Sales Manager",
      sales: "Sales Representative",
      user: "User",
      viewer: "Viewer",
    },
  },
};
