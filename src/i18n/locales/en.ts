import type { Catalogue } from "./tr.ts";

/** English catalogue; typed against the Turkish one so a missing or extra key fails to compile. */
export const en: Catalogue = {
  app: {
    title: "Sales CRM",
  },
  common: {
    loading: "Loading...",
    retry: "Try Again",
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
      title: "Sign In",
      subtitle: "Sign in to your account with your email address and password.",
      email: "Email",
      password: "Password",
      togglePasswordVisibility: "Show or hide the password",
      submit: "Sign In",
    },
    validation: {
      emailRequired: "Email address is required.",
      emailInvalid: "Enter a valid email address.",
      passwordRequired: "Password is required.",
    },
    errors: {
      invalidCredentials: "Incorrect email or password.",
      accountLocked: "Your account is locked after too many failed attempts. Try again in {{minutes}} minutes.",
      adminLocked: "Your account has been locked by an administrator. Please contact your administrator.",
      noOrganization: "No active organization was found for your account. Please contact your administrator.",
      accountDisabled: "Your account is disabled. Please contact your administrator.",
      network: "The server could not be reached. Check your internet connection and try again.",
      rateLimited: "Too many attempts. Please wait a moment and try again.",
      unknown: "Sign-in failed. Please try again.",
    },
    signOut: {
      button: "Sign Out",
      failed: "Sign-out failed. Please try again.",
    },
  },
  home: {
    welcome: "Welcome, {{name}}",
    organizationLabel: "Company",
    noOrganization: "You are not linked to a company yet.",
    loadError: "Your user details could not be loaded.",
  },
};
