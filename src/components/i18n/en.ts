import type { tr } from "./tr.ts";

/** English texts of the shared components, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  app: {
    title: "Sales CRM",
  },
  common: {
    loading: "Loading...",
    retry: "Try Again",
    list: {
      pagination: "Pages",
      pageNumber: "Page {{page}}",
      paginationControls: {
        first: "First page",
        previous: "Previous page",
        next: "Next page",
        last: "Last page",
      },
      sortBy: "Sort by {{column}}",
    },
  },
  language: {
    label: "Language",
    tr: "Türkçe",
    en: "English",
  },
  errorScreen: {
    title: "An Error Occurred",
    description: "Something unexpected went wrong. You can reload the page or go back to the home page.",
    reload: "Reload Page",
    goHome: "Back to Home",
  },
  auth: {
    login: {
      togglePasswordVisibility: "Show or hide the password",
    },
  },
  profile: {
    attempts: {
      time: "Date",
      result: "Result",
      reason: "Reason",
      source: "Source",
      succeeded: "Succeeded",
      failed: "Failed",
      empty: "No sign-in attempts yet.",
      loadError: "Sign-in attempts could not be loaded.",
      reasons: {
        invalid_credentials: "Wrong password",
        account_locked: "Account locked",
        admin_locked: "Locked by an administrator",
        account_disabled: "Account disabled",
        no_organization: "No company found",
        throttled: "Too many attempts",
        password_too_long: "Password too long",
      },
      sources: {
        login: "Sign-in screen",
        auth_hook: "Authentication service",
        auth: "Authentication service (direct)",
        password_change: "Password change",
      },
    },
  },
};
