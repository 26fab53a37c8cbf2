import { Suspense } from "react";
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from "react-router-dom";
import { ErrorScreen } from "@/components/ErrorScreen.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
// The login page is the first screen of nearly every visit: it comes with the entry chunk
// rather than as a second round trip; every other page loads on demand.
import { LoginPage } from "@/features/auth/routes/LoginPage.tsx";
import { lazyPage } from "@/lib/lazy-page.ts";

// "Şifremi unuttum": public, each page its own chunk.
const ForgotPasswordPage = lazyPage(() => import("@/features/auth/routes/ForgotPasswordPage.tsx"), "ForgotPasswordPage");
const ResetPasswordPage = lazyPage(() => import("@/features/auth/routes/ResetPasswordPage.tsx"), "ResetPasswordPage");

function RootLayout() {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Outlet />
    </Suspense>
  );
}

const rootRouteId = "root";

export const routes: RouteObject[] = [
  {
    id: rootRouteId,
    element: <RootLayout />,
    errorElement: <ErrorScreen />,
    // Shown while the signed-in routes load on a first visit to one of their paths.
    hydrateFallbackElement: <LoadingScreen />,
    children: [
      { path: "/login", element: <LoginPage /> },
      { path: "/forgot-password", element: <ForgotPasswordPage /> },
      { path: "/reset-password", element: <ResetPasswordPage /> },
      // Until the signed-in routes are there (below), every other path lands here first.
      { path: "*", element: <Navigate to="/login" replace /> },
    ],
  },
];

let signedInRoutesAdded = false;

export const router = createBrowserRouter(routes, {
  // Any path but the public ones (the others match only the catch-all until then) brings the signed-in
  // routes (signed-in-routes.tsx) once, before the navigation goes on.
  async patchRoutesOnNavigation({ patch }) {
    if (signedInRoutesAdded) return;
    const { signedInRoutes } = await import("./signed-in-routes.tsx");
    if (signedInRoutesAdded) return;
    signedInRoutesAdded = true;
    patch(rootRouteId, signedInRoutes);
  },
});
