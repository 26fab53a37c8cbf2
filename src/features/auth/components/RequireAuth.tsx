import { Navigate, Outlet } from "react-router-dom";
import { LoadingScreen } from "../../../components/LoadingScreen.tsx";
import { useSession } from "../session/session-context.ts";

/** Layout route that renders its children only for a signed-in user. */
export function RequireAuth() {
  const { status } = useSession();
  if (status === "loading") return <LoadingScreen />;
  if (status === "signedOut") return <Navigate to="/login" replace />;
  return <Outlet />;
}
