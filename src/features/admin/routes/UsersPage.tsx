import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import { ListPagination } from "@/components/ListPagination.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { useUserAction } from "../users/api/mutations.ts";
import { useOrganizationUsers } from "../users/api/queries.ts";
import type { OrganizationUser } from "../users/api/schemas.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { CreateUserModal } from "../users/components/CreateUserModal.tsx";
import { DeleteUserModal } from "../users/components/DeleteUserModal.tsx";
import { EditUserModal } from "../users/components/EditUserModal.tsx";
import { LoginAttemptsDrawer } from "../users/components/LoginAttemptsDrawer.tsx";
import { notifyUserFailure } from "../users/components/notify.ts";
import { ResetPasswordModal } from "../users/components/ResetPasswordModal.tsx";
import { TransferRecordsModal } from "../users/components/TransferRecordsModal.tsx";
import { UserFilters } from "../users/components/UserFilters.tsx";
import { UsersTable, type RowAction } from "../users/components/UsersTable.tsx";
import { initialListState, pageCount, sortBy, withFilter, type UserListState } from "../users/utils/list-params.ts";
import { LoadError } from "@/components/LoadError.tsx";

type Dialog =
  | { kind: "create" }
  | { kind: "edit" | "resetPassword" | "delete" | "transfer" | "loginAttempts"; user: OrganizationUser };

const SEARCH_DEBOUNCE_MS = 300;

/** Admin page "users": the organization's members and what an admin can do with them. */
export function UsersPage() {
  const { t } = useTranslation();
  const scope = useOrganizationScope();
  const [state, setState] = useState<UserListState>(initialListState);
  const [searchInput, setSearchInput] = useState("");
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const users = useOrganizationUsers(scope, state);
  const quickAction = useUserAction(scope);

  // The typed search reaches the list once typing pauses.
  const applySearch = useDebouncedCallback((search: string) => {
    setState((current) => (current.search === search ? current : withFilter(current, { search })));
  }, SEARCH_DEBOUNCE_MS);
  const onSearch = (search: string) => {
    setSearchInput(search);
    applySearch(search);
  };

  const close = () => setDialog(null);

  const onAction = (action: RowAction, user: OrganizationUser) => {
    if (action === "lock" || action === "unlock") {
      quickAction.mutate(
        { action, user_id: user.id },
        {
          onSuccess: () => notifySuccess(t(action === "lock" ? "adminUsers.notifications.locked" : "adminUsers.notifications.unlocked")),
          onError: (error) => notifyUserFailure(t, error),
        },
      );
      return;
    }
    setDialog({ kind: action, user });
  };

  const total = users.data?.total ?? 0;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Title order={1}>{t("adminUsers.title")}</Title>
          <Text c="dimmed">{t("adminUsers.description")}</Text>
        </Stack>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setDialog({ kind: "create" })}>
          {t("adminUsers.create")}
        </Button>
      </Group>

      <UserFilters
        search={searchInput}
        role={state.role}
        status={state.status}
        onSearch={onSearch}
        onRole={(role) => setState((current) => withFilter(current, { role }))}
        onStatus={(status) => setState((current) => withFilter(current, { status }))}
      />

      {users.isPending && <LoadingScreen compact />}
      {users.isError && (
        <LoadError title={t("adminUsers.list.loadError")} onRetry={() => void users.refetch()} />
      )}
      {users.isSuccess && (
        <Stack gap="sm">
          <Text size="sm" aria-live="polite">
            {t("adminUsers.list.total", { count: total })}
          </Text>
          {users.data.users.length === 0 ? (
            <Text>{t("adminUsers.list.empty")}</Text>
          ) : (
            <UsersTable
              users={users.data.users}
              state={state}
              sessionUserId={scope.sessionUserId}
              onSort={(column) => setState((current) => sortBy(current, column))}
              onAction={onAction}
            />
          )}
          <ListPagination
            pages={pageCount(total)}
            page={state.page}
            onChange={(page) => setState((current) => ({ ...current, page }))}
          />
        </Stack>
      )}

      {dialog?.kind === "create" && <CreateUserModal scope={scope} onClose={close} />}
      {dialog?.kind === "edit" && <EditUserModal scope={scope} user={dialog.user} onClose={close} />}
      {dialog?.kind === "resetPassword" && <ResetPasswordModal scope={scope} user={dialog.user} onClose={close} />}
      {dialog?.kind === "delete" && (
        <DeleteUserModal
          scope={scope}
          user={dialog.user}
          onClose={close}
          onTransfer={(user) => setDialog({ kind: "transfer", user })}
        />
      )}
      {dialog?.kind === "transfer" && <TransferRecordsModal scope={scope} user={dialog.user} onClose={close} />}
      {dialog?.kind === "loginAttempts" && <LoginAttemptsDrawer scope={scope} user={dialog.user} onClose={close} />}
    </Stack>
  );
}
