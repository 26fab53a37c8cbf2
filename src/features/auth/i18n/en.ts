import type { tr } from "./tr.ts";

/** English texts of sign-in, terms and the organization choice, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  auth: {
    login: {
      title: "Sign in",
      subtitle: "Sign in to your account with your email address and password.",
      email: "Email",
      password: "Password",
      submit: "Sign in",
    },
    validation: {
      emailRequired: "Email address is required.",
      emailInvalid: "Enter a valid email address.",
      passwordRequired: "Password is required.",
    },
    errors: {
      invalidCredentials: "Incorrect email or password.",
      accountLocked_one: "Account is locked for {{count}} minute after too many failed attempts. Please try again later.",
      accountLocked_other: "Account is locked for {{count}} minutes after too many failed attempts. Please try again later.",
      adminLocked: "Account is locked by administrator. Please contact your administrator.",
      noOrganization: "Unable to determine an organization for {{email}}. Please contact your administrator.",
      accountDisabled: "Your account is disabled. Please contact your administrator.",
      authUserCreationFailed: "Auth user creation failed. Please try again; if it persists, contact your administrator.",
      authUserCreationError: "Auth user creation error. Please try again.",
      passwordSyncFailed: "Password sync failed. Please try again; if it persists, contact your administrator.",
      sessionCreationFailed: "Authentication session creation failed. Please try again.",
      loginError: "Login error. Please try again.",
      timeout: "Login timeout - 25 seconds exceeded. Please check your connection.",
      authenticationRequired: "Authentication required. Please sign in again.",
      organizationRequired: "This organization is not available to your account.",
      userNotFound: "User not found. Please contact your administrator.",
      network: "The server could not be reached. Check your internet connection and try again.",
      tooManyAttempts_one: "Too many sign-in attempts. Please try again in {{count}} minute.",
      tooManyAttempts_other: "Too many sign-in attempts. Please try again in {{count}} minutes.",
      rateLimited: "Too many sign-in attempts. Please wait a moment and try again.",
      unknown: "Sign-in failed. Please try again.",
    },
    sessionEnded: {
      expired: "Your session reached its 24-hour limit. Please sign in again.",
      unauthorized: "Your session is no longer valid. Please sign in again.",
      ended: "Your session has ended. Please sign in again.",
    },
    guard: {
      loadError: "Your session details could not be loaded.",
    },
  },
  terms: {
    title: "Terms of Use",
    intro: "Please read these terms before using Sales CRM. By using the application you accept them.",
    sections: {
      use: {
        title: "Purpose",
        body: "The application lets you manage your company's customers, contacts, deals, quotes, contracts, documents and tasks. Use it for your company's work only.",
      },
      account: {
        title: "Your account",
        body: "Your account is personal. Do not share your password; you are responsible for what is done with your account. Five failed sign-ins lock the account for 30 minutes.",
      },
      data: {
        title: "Data and privacy",
        body: "The records you enter belong to your company and are shown only to its authorised users. Personal data is processed in line with the Turkish Personal Data Protection Law (KVKK, No. 6698).",
      },
      security: {
        title: "Security",
        body: "Sign-in attempts are logged. A session lasts at most 24 hours, and the organization cannot be changed while it is open.",
      },
      changes: {
        title: "Changes",
        body: "When these terms change you may be asked to accept them again. For questions, contact your company's administrator.",
      },
    },
    agree: "I have read and accept the terms of use.",
    accept: "Accept and continue",
    decline: "I do not accept, sign out",
    acceptFailed: "Your acceptance could not be saved. Please try again.",
    alreadyAccepted: "You have accepted the terms of use on this browser.",
    continue: "Continue",
    backToLogin: "Back to sign-in",
  },
  organizations: {
    select: {
      title: "Choose an Organization",
      description: "Your account belongs to more than one organization. Choose the one to work in for this session; the choice cannot be changed during the session.",
      label: "Organization",
      submit: "Continue with This Organization",
      continue: "Continue",
      currentWithRole: "Current organization · {{role}}",
      none: "No active organization was found for your account. Please contact your administrator.",
      loadError: "The organizations could not be loaded.",
      signOut: "Sign out",
    },
    switchDisabled: {
      title: "The organization cannot be changed",
    },
    errors: {
      switchDisabled: "Changing organization is disabled for security. Please log in with the correct organization.",
    },
  },
};
