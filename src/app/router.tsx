import { lazy, Suspense } from "react";
import { BrowserRouter, Outlet, useLocation, useRoutes, type RouteObject } from "react-router-dom";
import { ErrorBoundary } from "@/components/ErrorBoundary.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
// The login page is the first screen of nearly every visit: it comes with the entry chunk
// rather than as a second round trip; every other page loads on demand.
import { LoginPage } from "@/features/auth/routes/LoginPage.tsx";
import { lazyPage } from "@/lib/lazy-page.ts";

// "Şifremi unuttum": public, each page its own chunk.
const ForgotPasswordPage = lazyPage(() => import("@/features/auth/routes/ForgotPasswordPage.tsx"), "ForgotPasswordPage");
const ResetPasswordPage = lazyPage(() => import("@/features/auth/routes/ResetPasswordPage.tsx"), "ResetPasswordPage");
// Every route past the public pages (signed-in-routes.tsx), loaded the first time another path
// is visited: the first screen loads neither these routes nor what they name (the modules'
// registry, its icons, the admin sections).
const SignedInRoutes = lazy(async () => ({ default: (await import("./signed-in-routes.tsx")).SignedInRoutes }));

/**
 * The root of every route: while a page's or layout's code loads, 'Yükleniyor...'; if it
 * cannot load or fails, the full error screen, until the path changes.
 */
function RootLayout() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname}>
      <Suspense fallback={<LoadingScreen />}>
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  );
}

const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: "/login", element: <LoginPage /> },
      { path: "/forgot-password", element: <ForgotPasswordPage /> },
      { path: "/reset-password", element: <ResetPasswordPage /> },
      { path: "*", element: <SignedInRoutes /> },
    ],
  },
];

function AppRoutes() {
  return useRoutes(routes);
}

/**
 * The app's router: React Router in its declarative mode. Its data router (loaders, actions,
 * route discovery, error elements) would double what the router adds to /login (about 33
 * against 16 KiB gzipped) for nothing this app uses: pages load their data through TanStack
 * Query, routes load by React.lazy, and errors are caught by ErrorBoundary.
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
