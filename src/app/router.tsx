import { lazy, Suspense } from "react";
import { createBrowserRouter, Navigate, Outlet } from "react-router-dom";
import { ErrorScreen } from "../components/ErrorScreen.tsx";
import { LoadingScreen } from "../components/LoadingScreen.tsx";
import { RequireAuth } from "../features/auth/components/RequireAuth.tsx";

// Pages are loaded on demand; each becomes its own chunk.
const LoginPage = lazy(() =>
  import("../features/auth/routes/LoginPage.tsx").then((module) => ({ default: module.LoginPage })),
);
const HomePage = lazy(() =>
  import("../features/home/routes/HomePage.tsx").then((module) => ({ default: module.HomePage })),
);

function RootLayout() {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Outlet />
    </Suspense>
  );
}

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <ErrorScreen />,
    children: [
      { path: "/login", element: <LoginPage /> },
      {
        element: <RequireAuth />,
        children: [{ index: true, element: <HomePage /> }],
      },
      { path: "*", element: <Navigate to="/login" replace /> },
    ],
  },
]);
