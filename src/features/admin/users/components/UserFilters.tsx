import { CloseButton, Group, NativeSelect, TextInput } from "@mantine/core";
import { IconSearch } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { roleOptions, useRoleNames } from "@/components/roles/role-names.ts";
import { isUserStatus, userStatuses, type UserStatus } from "../utils/list-params.ts";

interface Props {
  search: string;
  role: string | null;
  status: UserStatus | null;
  onSearch(search: string): void;
  onRole(role: string | null): void;
  onStatus(status: UserStatus | null): void;
}

/** Search (the page debounces it) and the role and status filters. */
export function UserFilters({ search, role, status, onSearch, onRole, onStatus }: Props) {
  const { t } = useTranslation();
  const roleNames = useRoleNames();
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <TextInput
        type="search"
        label={t("adminUsers.list.search")}
        placeholder={t("adminUsers.list.searchPlaceholder")}
        value={search}
        onChange={(event) => onSearch(event.currentTarget.value)}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={
          search ? <CloseButton size="sm" aria-label={t("adminUsers.form.close")} onClick={() => onSearch("")} /> : null
        }
        style={{ flex: "1 1 260px" }}
      />
      <NativeSelect
        label={t("adminUsers.list.role")}
        value={role ?? ""}
        onChange={(event) => {
          const value = event.currentTarget.value;
          onRole(value === "" ? null : value);
        }}
        data={[
          { value: "", label: t("adminUsers.list.allRoles") },
          ...roleOptions(t, roleNames.data),
        ]}
      />
      <NativeSelect
        label={t("adminUsers.list.status")}
        value={status ?? ""}
        onChange={(event) => {
          const value = event.currentTarget.value;
          onStatus(isUserStatus(value) ? value : null);
        }}
        data={[
          { value: "", label: t("adminUsers.list.allStatuses") },
          ...userStatuses.map((key) => ({ value: key, label: t(`adminUsers.status.${key}`) })),
        ]}
      />
    </Group>
  );
}
