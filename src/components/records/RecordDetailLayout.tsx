import { Button, Group, Modal, Stack, Tabs, Text, Title, Tooltip } from "@mantine/core";
import { IconArrowLeft, IconLock, IconPencil, IconTrash } from "@tabler/icons-react";
import { useId, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { ModuleKey } from "@/modules/registry.ts";
import type { RecordAccess } from "./record-access.ts";
import { useRecordAccess } from "./use-record-access.ts";

export interface RecordTab {
  value: string;
  label: string;
  content: ReactNode;
}

interface Props {
  title: string;
  subtitle?: ReactNode;
  back: { to: string; label: string };
  /**
   * The record's module and owner: edit and delete are then offered only as the caller's
   * permissions allow on THIS record (record-access.ts): hidden when the role never may,
   * disabled with the reason when it may only on its own records and this is another's.
   */
  record?: { module: ModuleKey; ownerId: string };
  onEdit?: () => void;
  /** Deletes after the user confirmed; absent when the role may not delete. */
  onDelete?: () => void;
  deleting?: boolean;
  extraActions?: ReactNode;
  tabs: RecordTab[];
}

/** A record's page: back link, title, actions (edit, delete with confirm) and tabs. */
export function RecordDetailLayout({ title, subtitle, back, record, onEdit, onDelete, deleting, extraActions, tabs }: Props) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const reasonId = useId();
  const { access } = useRecordAccess(record?.module);
  const accessTo = (action: "edit" | "delete"): RecordAccess => (record ? access(action, record.ownerId) : "allowed");
  const editAccess = onEdit ? accessTo("edit") : "denied";
  const deleteAccess = onDelete ? accessTo("delete") : "denied";
  const notOwner = editAccess === "not_owner" || deleteAccess === "not_owner";
  /** An action the role allows only on its own records, on another's: shown disabled, the reason beside it and on hover. */
  const refused = (label: string, icon: ReactNode, color?: string) => (
    <Tooltip label={t("records.detail.notOwner")}>
      <Button data-disabled aria-disabled="true" aria-describedby={reasonId} color={color} variant={color ? "light" : undefined}
        leftSection={icon} onClick={(event) => event.preventDefault()}>
        {label}
      </Button>
    </Tooltip>
  );
  return (
    <Stack gap="lg">
      <Group>
        <Button component={Link} to={back.to} variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          {back.label}
        </Button>
      </Group>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={1} style={{ overflowWrap: "anywhere" }}>
            {title}
          </Title>
          {subtitle}
        </Stack>
        <Group gap="xs" role="group" aria-label={t("records.detail.actions")}>
          {extraActions}
          {editAccess === "allowed" && (
            <Button leftSection={<IconPencil size={16} aria-hidden />} onClick={onEdit}>
              {t("records.detail.edit")}
            </Button>
          )}
          {editAccess === "not_owner" && refused(t("records.detail.edit"), <IconPencil size={16} aria-hidden />)}
          {deleteAccess === "allowed" && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setConfirming(true)}>
              {t("records.detail.delete")}
            </Button>
          )}
          {deleteAccess === "not_owner" && refused(t("records.detail.delete"), <IconTrash size={16} aria-hidden />, "red")}
        </Group>
      </Group>
      {notOwner && (
        <Group gap={6} justify="flex-end" mt={-8}>
          <IconLock size={14} aria-hidden />
          <Text id={reasonId} size="sm" c="dimmed">
            {t("records.detail.notOwner")}
          </Text>
        </Group>
      )}
      <Tabs defaultValue={tabs[0]?.value} keepMounted={false}>
        <Tabs.List aria-label={t("records.detail.tabs")} style={{ overflowX: "auto", flexWrap: "nowrap" }}>
          {tabs.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Panel key={tab.value} value={tab.value} pt="md">
            {tab.content}
          </Tabs.Panel>
        ))}
      </Tabs>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t("records.detail.deleteTitle")}
        closeButtonProps={{ "aria-label": t("records.form.close") }}>
        <Stack>
          <Text>{t("records.detail.deleteConfirm", { name: title })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t("records.bulk.cancel")}
            </Button>
            <Button color="red" loading={deleting} onClick={() => onDelete?.()}>
              {t("records.detail.delete")}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
