import { lazy, Suspense, type ComponentType } from "react";
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from "react-router-dom";
import { ErrorScreen } from "@/components/ErrorScreen.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { RequireAuth } from "@/features/auth/components/RequireAuth.tsx";
import type { ModuleKey } from "./shell/navigation.ts";
import { hiddenOrganizationManagerPath } from "./paths.ts";
// The login page is the first screen of nearly every visit: it comes with the entry chunk
// rather than as a second round trip; every other page loads on demand.
import { LoginPage } from "@/features/auth/routes/LoginPage.tsx";

/**
 * A page loaded on demand: each becomes its own chunk, so the first screen (/login) downloads
 * neither the main layout nor the admin pages. While it loads, the nearest Suspense shows
 * 'Yükleniyor...'; if it cannot load, the route's error element shows the error screen.
 */
function lazyPage<Module>(load: () => Promise<Module>, name: keyof Module) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const TermsPage = lazyPage(() => import("@/features/auth/routes/TermsPage.tsx"), "TermsPage");
const SelectOrganizationPage = lazyPage(
  () => import("@/features/organizations/routes/SelectOrganizationPage.tsx"),
  "SelectOrganizationPage",
);
const AppLayout = lazyPage(() => import("./shell/AppLayout.tsx"), "AppLayout");
const HomePage = lazyPage(() => import("@/features/home/routes/HomePage.tsx"), "HomePage");
const ProfilePage = lazyPage(() => import("@/features/profile/routes/ProfilePage.tsx"), "ProfilePage");

const CustomersPage = lazyPage(() => import("@/features/customers/routes/CustomersPage.tsx"), "CustomersPage");
const CustomerDetailPage = lazyPage(
  () => import("@/features/customers/routes/CustomerDetailPage.tsx"),
  "CustomerDetailPage",
);
const ContactsPage = lazyPage(() => import("@/features/contacts/routes/ContactsPage.tsx"), "ContactsPage");
const ContactDetailPage = lazyPage(() => import("@/features/contacts/routes/ContactDetailPage.tsx"), "ContactDetailPage");
const DealsPage = lazyPage(() => import("@/features/deals/routes/DealsPage.tsx"), "DealsPage");
const DealDetailPage = lazyPage(() => import("@/features/deals/routes/DealDetailPage.tsx"), "DealDetailPage");
const QuotesPage = lazyPage(() => import("@/features/quotes/routes/QuotesPage.tsx"), "QuotesPage");
const ContractsPage = lazyPage(() => import("@/features/contracts/routes/ContractsPage.tsx"), "ContractsPage");
const DocumentsPage = lazyPage(() => import("@/features/documents/routes/DocumentsPage.tsx"), "DocumentsPage");
const TasksPage = lazyPage(() => import("@/features/tasks/routes/TasksPage.tsx"), "TasksPage");
const ImportExportPage = lazyPage(() => import("@/features/import-export/routes/ImportExportPage.tsx"), "ImportExportPage");

// A module's pages open only for a role that may view it (it takes the module as a prop).
const RequireModule = lazy(async () => ({
  default: (await import("@/features/permissions/components/RequireModule.tsx")).RequireModule,
}));
const RequireAdmin = lazyPage(() => import("@/features/admin/components/RequireAdmin.tsx"), "RequireAdmin");
const RequireSuperAdmin = lazyPage(() => import("@/features/admin/components/RequireAdmin.tsx"), "RequireSuperAdmin");
const AdminPanelPage = lazyPage(() => import("@/features/admin/routes/AdminPanelPage.tsx"), "AdminPanelPage");
const UsersPage = lazyPage(() => import("@/features/admin/routes/UsersPage.tsx"), "UsersPage");
const GeneralSettingsPage = lazyPage(
  () => import("@/features/admin/routes/GeneralSettingsPage.tsx"),
  "GeneralSettingsPage",
);
const OperationsSettingsPage = lazyPage(
  () => import("@/features/admin/routes/OperationsSettingsPage.tsx"),
  "OperationsSettingsPage",
);
const RolesPage = lazyPage(() => import("@/features/admin/routes/RolesPage.tsx"), "RolesPage");
const DatabasePage = lazyPage(() => import("@/features/admin/routes/DatabasePage.tsx"), "DatabasePage");
const DocumentTemplatesPage = lazyPage(
  () => import("@/features/admin/routes/DocumentTemplatesPage.tsx"),
  "DocumentTemplatesPage",
);
const AuditLogPage = lazyPage(() => import("@/features/admin/routes/AuditLogPage.tsx"), "AuditLogPage");
const SuperAdminSwitcherPage = lazyPage(
  () => import("@/features/admin/routes/SuperAdminSwitcherPage.tsx"),
  "SuperAdminSwitcherPage",
);
const OrganizationManagerPage = lazyPage(
  () => import("@/features/admin/routes/OrganizationManagerPage.tsx"),
  "OrganizationManagerPage",
);

function RootLayout() {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Outlet />
    </Suspense>
  );
}

/** One module's pages behind its permission check. */
function moduleRoutes(module: ModuleKey, children: RouteObject[]): RouteObject {
  return { element: <RequireModule module={module} />, children };
}

/** Admin group (spec §2): admins and super admins; two pages for super admins only. */
const adminRoutes: RouteObject = {
  element: <RequireAdmin />,
  children: [
    { path: "/admin", element: <AdminPanelPage /> },
    { path: "/admin/users", element: <UsersPage /> },
    { path: "/admin/general-settings", element: <GeneralSettingsPage /> },
    { path: "/admin/operations-settings", element: <OperationsSettingsPage /> },
    { path: "/admin/roles", element: <RolesPage /> },
    { path: "/admin/authorization", element: <Navigate to="/admin/roles" replace /> },
    { path: "/admin/modern-roles", element: <Navigate to="/admin/roles" replace /> },
    { path: "/admin/database", element: <DatabasePage /> },
    { path: "/admin/document-templates", element: <DocumentTemplatesPage /> },
    { path: "/admin/audit-log", element: <AuditLogPage /> },
    {
      element: <RequireSuperAdmin />,
      children: [
        { path: "/admin/super-admin-switcher", element: <SuperAdminSwitcherPage /> },
        { path: "/admin/organization-manager", element: <OrganizationManagerPage /> },
        { path: "/organization-manager", element: <OrganizationManagerPage /> },
        { path: hiddenOrganizationManagerPath, element: <OrganizationManagerPage /> },
      ],
    },
  ],
};

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <ErrorScreen />,
    children: [
      { path: "/login", element: <LoginPage /> },
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
                // A page that fails shows the error screen inside the layout: the sidebar stays.
                errorElement: <ErrorScreen embedded />,
                children: [
                  { index: true, element: <HomePage /> },
                  moduleRoutes("customers", [
                    { path: "/customers", element: <CustomersPage /> },
                    { path: "/customers/:id", element: <CustomerDetailPage /> },
                  ]),
                  moduleRoutes("contacts", [
                    { path: "/contacts", element: <ContactsPage /> },
                    { path: "/contacts/:id", element: <ContactDetailPage /> },
                  ]),
                  moduleRoutes("deals", [
                    { path: "/deals", element: <DealsPage /> },
                    { path: "/deals/:id", element: <DealDetailPage /> },
                  ]),
                  moduleRoutes("quotes", [{ path: "/quotes", element: <QuotesPage /> }]),
                  moduleRoutes("contracts", [{ path: "/contracts", element: <ContractsPage /> }]),
                  moduleRoutes("documents", [{ path: "/documents", element: <DocumentsPage /> }]),
                  moduleRoutes("tasks", [{ path: "/tasks", element: <TasksPage /> }]),
                  moduleRoutes("importExport", [{ path: "/import-export", element: <ImportExportPage /> }]),
                  { path: "/profile", element: <ProfilePage /> },
                  adminRoutes,
                ],
              },
            ],
          },
        ],
      },
      { path: "*", element: <Navigate to="/login" replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
