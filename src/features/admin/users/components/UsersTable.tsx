import { ActionIcon, Badge, Group, Menu, Table, Text } from "@mantine/core";
import {
  IconArrowsTransferDown,
  IconDots,
  IconEdit,
  IconHistory,
  IconKey,
  IconLock,
  IconLockOpen,
  IconTrash,
} from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { SortableHeader } from "@/components/SortableHeader.tsx";
import { roleName, useRoleNames } from "@/components/roles/role-names.ts";
import { displayName } from "@/lib/display-name.ts";
import { formatDateTime } from "@/lib/format.ts";
import type { OrganizationUser } from "../api/schemas.ts";
import type { SortKey, UserListState } from "../utils/list-params.ts";
import { UserStatusBadge } from "./UserStatusBadge.tsx";

export type RowAction = "edit" | "lock" | "unlock" | "resetPassword" | "transfer" | "loginAttempts" | "delete";

interface Props {
  users: OrganizationUser[];
  state: UserListState;
  /** The signed-in user: their own row offers no lock, delete or reset. */
  sessionUserId: string;
  onSort(column: SortKey): void;
  onAction(action: RowAction, user: OrganizationUser): void;
}

export function UsersTable({ users, state, sessionUserId, onSort, onAction }: Props) {
  const { t, i18n } = useTranslation();
  const roleNames = useRoleNames();

  const header = (column: SortKey | null, label: string) =>
    column ? (
      <SortableHeader column={column} label={label} state={state} onSort={onSort} />
    ) : (
      <Table.Th scope="col">{label}</Table.Th>
    );

  return (
    // Native scrolling, focusable, so that a keyboard can scroll it on a narrow screen.
    <Table.ScrollContainer minWidth={860} type="native" tabIndex={0}>
      <Table striped highlightOnHover aria-label={t("adminUsers.list.label")}>
        <Table.Thead>
          <Table.Tr>
            {header("name", t("adminUsers.list.columns.name"))}
            {header("email", t("adminUsers.list.columns.email"))}
            {header("role", t("adminUsers.list.columns.role"))}
            {header(null, t("adminUsers.list.columns.status"))}
            {header("last_login_at", t("adminUsers.list.columns.lastLogin"))}
            <Table.Th scope="col">
              <Text span size="sm" fw={700}>
                {t("adminUsers.list.columns.actions")}
              </Text>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => {
            const self = user.id === sessionUserId;
            const name = displayName(user);
            return (
              <Table.Tr key={user.id}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Text size="sm">{[user.first_name, user.last_name].filter(Boolean).join(" ").trim() || "—"}</Text>
                    {self && (
                      <Badge size="xs" variant="outline" tt="none">
                        {t("adminUsers.list.you")}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td style={{ overflowWrap: "anywhere" }}>{user.email}</Table.Td>
                <Table.Td>{roleName(t, roleNames.data, user.organization_role)}</Table.Td>
                <Table.Td>
                  <UserStatusBadge user={user} />
                </Table.Td>
                <Table.Td>
                  {user.last_login_at
                    ? formatDateTime(user.last_login_at, i18n.resolvedLanguage)
                    : t("adminUsers.list.neverSignedIn")}
                </Table.Td>
                <Table.Td>
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon variant="subtle" color="gray" aria-label={t("adminUsers.actions.menu", { name })}>
                        <IconDots size={18} aria-hidden />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item leftSection={<IconEdit size={16} aria-hidden />} onClick={() => onAction("edit", user)}>
                        {t("adminUsers.actions.edit")}
                      </Menu.Item>
                      {user.locked ? (
                        <Menu.Item leftSection={<IconLockOpen size={16} aria-hidden />} onClick={() => onAction("unlock", user)}>
                          {t("adminUsers.actions.unlock")}
                        </Menu.Item>
                      ) : (
                        <Menu.Item
                          leftSection={<IconLock size={16} aria-hidden />}
                          disabled={self}
                          onClick={() => onAction("lock", user)}
                        >
                          {t("adminUsers.actions.lock")}
                        </Menu.Item>
                      )}
                      <Menu.Item
                        leftSection={<IconKey size={16} aria-hidden />}
                        disabled={self}
                        onClick={() => onAction("resetPassword", user)}
                      >
                        {t("adminUsers.actions.resetPassword")}
                      </Menu.Item>
                      <Menu.Item
                        leftSection={<IconArrowsTransferDown size={16} aria-hidden />}
                        onClick={() => onAction("transfer", user)}
                      >
                        {t("adminUsers.actions.transfer")}
                      </Menu.Item>
                      <Menu.Item
                        leftSection={<IconHistory size={16} aria-hidden />}
                        onClick={() => onAction("loginAttempts", user)}
                      >
                        {t("adminUsers.actions.loginAttempts")}
                      </Menu.Item>
                      <Menu.Divider />
                      <Menu.Item
                        color="red"
                        leftSection={<IconTrash size={16} aria-hidden />}
                        disabled={self}
                        onClick={() => onAction("delete", user)}
                      >
                        {t("adminUsers.actions.delete")}
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
