import { Button } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { useSignOut } from "../api/sign-out.ts";

export function SignOutButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signOut = useSignOut();

  function handleClick() {
    signOut.mutate(undefined, {
      onSuccess: () => navigate("/login", { replace: true }),
      onError: () => notifications.show({ color: "red", message: t("auth.signOut.failed") }),
    });
  }

  return (
    <Button variant="default" onClick={handleClick} loading={signOut.isPending}>
      {t("auth.signOut.button")}
    </Button>
  );
}
