import type { tr } from "./tr.ts";

/** English texts of the profile page, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  profile: {
    title: "My Profile",
    description: "Your account details, your password and your recent sign-in attempts.",
    account: {
      title: "Account Details",
      email: "Email",
      organization: "Company",
      role: "Role",
      lastLogin: "Last sign-in",
      neverSignedIn: "None recorded",
    },
    roles: {
      super_admin: "Super Administrator",
    },
    name: {
      title: "Your details",
      firstName: "First name",
      lastName: "Last name",
      phone: "Phone",
      phoneHint: "Shown in your signature in the e-mails you send.",
      submit: "Save",
      saved: "Your details have been updated.",
      errors: {
        firstNameRequired: "First name is required.",
        tooLong: "At most 100 characters are allowed.",
        invalidPhone: "Enter a valid phone number.",
        unknown: "Your details could not be saved. Please try again.",
      },
    },
    password: {
      title: "Change password",
      current: "Current password",
      new: "New password",
      newHint: "At least {{min}} characters.",
      confirm: "New password (again)",
      submit: "Change password",
      changed: "Your password has been changed.",
      errors: {
        currentRequired: "Enter your current password.",
        currentWrong: "The current password is incorrect.",
        mismatch: "The passwords do not match.",
        locked: "Your account is locked for {{minutes}} minutes after too many failed attempts.",
        network: "The server could not be reached. Check your internet connection and try again.",
        unknown: "The password could not be changed. Please try again.",
      },
    },
    attempts: {
      title: "Recent Sign-in Attempts",
      description: "The last 20 sign-in attempts with your account, newest first.",
    },
  },
};
