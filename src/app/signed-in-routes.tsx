import { lazy } from "react";
import { Navigate, Outlet, useRoutes, type RouteObject } from "react-router-dom";
import { ErrorBoundary } from "@/components/ErrorBoundary.tsx";
import { ErrorScreen } from "@/components/ErrorScreen.tsx";
import { lazyPage, type LazyPage } from "@/lib/lazy-page.ts";
import { salesPages, type SalesPage, type SalesPageKey } from "@/modules/registry.ts";
import { modulePages } from "./module-pages.ts";
import { adminSections, type AdminSection } from "@/features/admin/sections.ts";

/*
 * Every route past the public pages. The router (router.tsx) loads them when a path other
 * than those is first visited: the first screen loads neither these routes nor what they name
 * (the modules' registry, its icons, the admin sections).
 */

// TanStack Query's provider for every route past the login page.
const QueryLayout = lazyPage(() => import("./QueryLayout.tsx"), "QueryLayout");
// The guard of every signed-in page (it reads the user's context): not part of the first screen.
const RequireAuth = lazyPage(() => import("@/features/auth/components/RequireAuth.tsx"), "RequireAuth");
const TermsPage = lazyPage(() => import("@/features/auth/routes/TermsPage.tsx"), "TermsPage");
const SelectOrganizationPage = lazyPage(
  () => import("@/features/auth/routes/SelectOrganizationPage.tsx"),
  "SelectOrganizationPage",
);
const AppLayout = lazyPage(() => import("./shell/AppLayout.tsx"), "AppLayout");
const HomePage = lazyPage(() => import("@/features/home/routes/HomePage.tsx"), "HomePage");
const ProfilePage = lazyPage(() => import("@/features/profile/routes/ProfilePage.tsx"), "ProfilePage");

// A module's pages open only for a role that may view it (it takes the module as a prop).
const RequireModule = lazy(async () => ({
  default: (await import("./RequireModule.tsx")).RequireModule,
}));
const RequireAdmin = lazyPage(() => import("@/features/admin/components/RequireAdmin.tsx"), "RequireAdmin");
const RequireSuperAdmin = lazyPage(() => import("@/features/admin/components/RequireAdmin.tsx"), "RequireSuperAdmin");
const AdminPanelPage = lazyPage(() => import("@/features/admin/routes/AdminPanelPage.tsx"), "AdminPanelPage");
/**
 * A sales page's routes (its list, and its records' pages if it has them) behind its permission
 * check: the registry's page with its components (module-pages.ts).
 */
function salesPageRoutes({ key, path }: SalesPage<SalesPageKey>): RouteObject {
  const { list: List, detail: Detail }: { list: LazyPage; detail?: LazyPage } = modulePages[key];
  const children: RouteObject[] = [{ path, element: <List /> }];
  if (Detail) children.push({ path: `${path}/:id`, element: <Detail /> });
  return { element: <RequireModule module={key} />, children };
}

/** An admin page's routes: its path and further paths, and the older paths that lead to it. */
function adminSectionRoutes({ path, page: Page, aliases = [], redirectsFrom = [] }: AdminSection): RouteObject[] {
  return [
    ...[path, ...aliases].map((sectionPath) => ({ path: sectionPath, element: <Page /> })),
    ...redirectsFrom.map((from) => ({ path: from, element: <Navigate to={path} replace /> })),
  ];
}

/** Admin group (spec §2): admins and super admins; some pages for super admins only. */
const adminRoutes: RouteObject = {
  element: <RequireAdmin />,
  children: [
    { path: "/admin", element: <AdminPanelPage /> },
    ...adminSections.filter((section) => !section.superAdminOnly).flatMap(adminSectionRoutes),
    {
      element: <RequireSuperAdmin />,
      children: adminSections.filter((section) => section.superAdminOnly).flatMap(adminSectionRoutes),
    },
  ],
};

/**
 * A page that fails shows the error screen inside the layout (the sidebar stays); another path
 * renders afresh (the layout's Suspense is keyed by the path, so this boundary starts over).
 */
function PageErrorBoundary() {
  return (
    <ErrorBoundary fallback={<ErrorScreen embedded />}>
      <Outlet />
    </ErrorBoundary>
  );
}

/** The routes past the public pages. */
const signedInRoutes: RouteObject[] = [
  {
    element: <QueryLayout />,
    children: [
      { path: "/terms", element: <TermsPage /> },
      // Signed in but outside the main layout; the page sees to its own guard, since
      // RequireAuth sends sessions without an organization here.
      { path: "/select-organization", element: <SelectOrganizationPage /> },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              {
                element: <PageErrorBoundary />,
                children: [
                  { index: true, element: <HomePage /> },
                  ...salesPages.map(salesPageRoutes),
                  { path: "/profile", element: <ProfilePage /> },
                  adminRoutes,
                ],
              },
            ],
          },
        ],
      },
    ],
  },
  // A path of no page leads to the login page (which sends a signed-in person home).
  { path: "*", element: <Navigate to="/login" replace /> },
];

/** The routes past the public pages, under the router's root (router.tsx). */
export function SignedInRoutes() {
  return useRoutes(signedInRoutes);
}
