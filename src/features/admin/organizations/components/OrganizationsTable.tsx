import { Badge, Button, Stack, Table, Text, VisuallyHidden } from "@mantine/core";
import { IconPencil } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import type { ManagedOrganization } from "../api/schemas.ts";
import { formatDate } from "@/lib/format.ts";
import { tablesStatus } from "../utils/organizations.ts";
import { usePlanLabel, useStatusLabel } from "./labels.ts";

interface Props {
  organizations: ManagedOrganization[];
  labelledBy: string;
  onEdit: (organization: ManagedOrganization) => void;
}

const statusColors: Record<string, string> = {
  active: "green",
  trial: "blue",
  past_due: "orange",
  suspended: "red",
  cancelled: "gray",
};

/** Every organization with its plan, subscription, activity, members and tables. */
export function OrganizationsTable({ organizations, labelledBy, onEdit }: Props) {
  const { t, i18n } = useTranslation();
  const planLabel = usePlanLabel();
  const statusLabel = useStatusLabel();

  return (
    // Native scrolling, focusable, so that a keyboard can scroll it on a narrow screen.
    <Table.ScrollContainer minWidth={960} type="native" tabIndex={0}>
      <Table striped highlightOnHover verticalSpacing="sm" aria-labelledby={labelledBy}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t("organizationManager.columns.name")}</Table.Th>
            <Table.Th scope="col">{t("organizationManager.columns.slug")}</Table.Th>
            <Table.Th scope="col">{t("organizationManager.columns.plan")}</Table.Th>
            <Table.Th scope="col">{t("organizationManager.columns.status")}</Table.Th>
            <Table.Th scope="col">{t("organizationManager.columns.active")}</Table.Th>
            <Table.Th scope="col">{t("organizationManager.columns.members")}</Table.Th>
            <Table.Th scope="col">{t("organizationManager.columns.tables")}</Table.Th>
            <Table.Th scope="col">{t("organizationManager.columns.createdAt")}</Table.Th>
            <Table.Th scope="col">{t("organizationManager.columns.actions")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {organizations.map((organization) => (
            <Table.Tr key={organization.id}>
              <Table.Th scope="row" fw={600}>
                {organization.name}
              </Table.Th>
              <Table.Td>
                <Text span ff="monospace" size="sm">
                  {organization.slug}
                </Text>
              </Table.Td>
              <Table.Td>{planLabel(organization.subscription_plan)}</Table.Td>
              <Table.Td>
                <Badge variant="dot" color={statusColors[organization.subscription_status] ?? "gray"} tt="none">
                  {statusLabel(organization.subscription_status)}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Badge variant="dot" color={organization.is_active ? "green" : "gray"} tt="none">
                  {t(organization.is_active ? "organizationManager.active" : "organizationManager.inactive")}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Text span size="sm" aria-hidden>
                  {t("organizationManager.members", {
                    active: organization.active_member_count,
                    total: organization.member_count,
                  })}
                </Text>
                <VisuallyHidden>
                  {t("organizationManager.membersLabel", {
                    active: organization.active_member_count,
                    total: organization.member_count,
                  })}
                </VisuallyHidden>
              </Table.Td>
              <Table.Td>
                <TablesBadge organization={organization} />
              </Table.Td>
              <Table.Td>{formatDate(organization.created_at, i18n.resolvedLanguage)}</Table.Td>
              <Table.Td>
                <Button
                  variant="subtle"
                  size="compact-sm"
                  leftSection={<IconPencil size={16} aria-hidden />}
                  aria-label={t("organizationManager.editLabel", { name: organization.name })}
                  onClick={() => onEdit(organization)}
                >
                  {t("organizationManager.edit")}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function TablesBadge({ organization }: { organization: ManagedOrganization }) {
  const { t } = useTranslation();
  const status = tablesStatus(organization);
  switch (status.kind) {
    case "current":
      return (
        <Badge variant="dot" color="green" tt="none">
          {t("organizationManager.tables.current", { version: status.version })}
        </Badge>
      );
    case "behind":
      return (
        <Badge variant="dot" color="yellow" tt="none">
          {t("organizationManager.tables.behind", { version: status.version, latest: status.latest })}
        </Badge>
      );
    case "notProvisioned":
      return (
        <Badge variant="dot" color="orange" tt="none">
          {t("organizationManager.tables.notProvisioned")}
        </Badge>
      );
    case "error":
      return (
        <Stack gap={4} maw={260}>
          <Badge variant="dot" color="red" tt="none">
            {t("organizationManager.tables.error")}
          </Badge>
          <Text size="xs" c="red.9" lineClamp={3} title={status.error} style={{ overflowWrap: "anywhere" }}>
            {status.error}
          </Text>
        </Stack>
      );
  }
}
