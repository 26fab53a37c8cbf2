import type { tr } from "./tr.ts";

/** English texts of the app shell, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  nav: {
    label: "Main menu",
    home: "Home",
    modules: "Sales",
    administration: "Administration",
    adminPages: "Admin Pages",
  },
  shell: {
    skipToContent: "Skip to content",
    openNavigation: "Open menu",
    closeNavigation: "Close menu",
    organizationLabel: "Company",
    userMenu: "User menu ({{name}})",
    profile: "My Profile",
    closeNotification: "Close notification",
  },
  theme: {
    label: "Theme",
    light: "Light",
    dark: "Dark",
  },
};
