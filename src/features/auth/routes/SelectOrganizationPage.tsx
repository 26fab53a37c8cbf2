import { Alert, Button, Container, Group, Paper, Radio, Stack, Text, Title } from "@mantine/core";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation, useNavigate } from "react-router-dom";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { useSignOut } from "@/session/use-sign-out.ts";
import { useSession } from "@/session/session-context.ts";
import { signInErrorMessage } from "../utils/sign-in-error.ts";
import { returnPath, returnState } from "@/session/return-to.ts";
import { useBindOrganization } from "../api/bind-organization.ts";
import { useMyOrganizations } from "../api/get-my-organizations.ts";
import type { MyOrganizations } from "../api/organization-schemas.ts";
import { organizationRoleLabel } from "@/lib/organization-roles.ts";

/**
 * /select-organization (spec section 2): a signed-in user whose session has no organization yet
 * picks one; with a single organization it is chosen at once. The choice is final for the
 * session: afterwards the page only explains that switching is disabled.
 */
export function SelectOrganizationPage() {
  const state = useSession();
  const location = useLocation();
  if (state.status === "loading" || state.status === "signingOut") return <LoadingScreen />;
  if (state.status === "signedOut") return <Navigate to="/login" replace state={returnState(location)} />;
  return <OrganizationChoice userId={state.session.user.id} />;
}

function OrganizationChoice({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const organizations = useMyOrganizations(userId);
  const signOut = useSignOut();

  return (
    <Container component="main" size={520} py="xl">
      <Paper withBorder shadow="sm" radius="md" p="lg">
        <Title order={1} size="h2">
          {t("organizations.select.title")}
        </Title>
        {organizations.isPending && <LoadingScreen />}
        {organizations.isError && (
          <Alert color="red" mt="md" title={t("organizations.select.loadError")}>
            <Button variant="default" size="xs" mt="sm" onClick={() => void organizations.refetch()}>
              {t("common.retry")}
            </Button>
          </Alert>
        )}
        {organizations.isSuccess && <ChoiceForm userId={userId} offer={organizations.data} />}
        <Group justify="flex-end" mt="lg">
          <Button variant="subtle" onClick={() => signOut.mutate()} loading={signOut.isPending}>
            {t("organizations.select.signOut")}
          </Button>
        </Group>
      </Paper>
    </Container>
  );
}

function ChoiceForm({ userId, offer }: { userId: string; offer: MyOrganizations }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const bind = useBindOrganization(userId);
  const { organizations, current_organization_id: currentId } = offer;
  const [chosen, setChosen] = useState<string | null>(currentId ?? organizations[0]?.id ?? null);
  const destination = returnPath(location.state);
  const only = organizations.length === 1 ? organizations[0] : undefined;

  const { mutate: bindMutate, isIdle: bindIsIdle } = bind;
  const choose = useCallback(
    (organizationId: string) =>
      bindMutate(organizationId, { onSuccess: () => navigate(destination, { replace: true }) }),
    [bindMutate, navigate, destination],
  );

  // Spec section 4: the organization is set to the first available one without asking when
  // there is nothing to choose between. (Binding the same organization twice is harmless.)
  const autoBindId = !currentId && only ? only.id : null;
  useEffect(() => {
    if (autoBindId && bindIsIdle) choose(autoBindId);
  }, [autoBindId, bindIsIdle, choose]);

  const refusal = bind.isError ? signInErrorMessage(bind.error) : undefined;

  if (organizations.length === 0) {
    return (
      <Alert color="red" mt="md">
        {t("organizations.select.none")}
      </Alert>
    );
  }
  if (autoBindId && !refusal) return <LoadingScreen />;

  return (
    <Stack mt="md">
      {currentId ? (
        <Alert color="blue" title={t("organizations.switchDisabled.title")}>
          {t("organizations.errors.switchDisabled")}
        </Alert>
      ) : (
        <Text size="sm">{t("organizations.select.description")}</Text>
      )}
      {refusal && <Alert color="red">{t(refusal.key, refusal.values ?? {})}</Alert>}
      <Radio.Group
        value={chosen}
        onChange={setChosen}
        label={t("organizations.select.label")}
        name="organization"
      >
        <Stack gap="sm" mt="xs">
          {organizations.map((organization) => (
            <Radio
              key={organization.id}
              value={organization.id}
              label={organization.name}
              description={
                organization.id === currentId
                  ? t("organizations.select.currentWithRole", { role: organizationRoleLabel(t, organization.role) })
                  : organizationRoleLabel(t, organization.role)
              }
              disabled={Boolean(currentId) && organization.id !== currentId}
            />
          ))}
        </Stack>
      </Radio.Group>
      {currentId ? (
        <Button onClick={() => navigate(destination, { replace: true })}>{t("organizations.select.continue")}</Button>
      ) : (
        <Button onClick={() => chosen && choose(chosen)} disabled={!chosen} loading={bind.isPending}>
          {t("organizations.select.submit")}
        </Button>
      )}
    </Stack>
  );
}
