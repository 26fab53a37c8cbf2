/**
 * A path that is in no menu and also opens the organization manager (spec §2: "one further
 * hidden path"). It is still behind the super-admin guard; README documents it.
 */
export const hiddenOrganizationManagerPath = "/yonetim/sirketler";
