import { Button, Group, Modal, Stack, Tabs, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconPencil, IconTrash } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";

export interface RecordTab {
  value: string;
  label: string;
  content: ReactNode;
}

interface Props {
  title: string;
  subtitle?: ReactNode;
  back: { to: string; label: string };
  onEdit?: () => void;
  /** Deletes after the user confirmed; absent when the role may not delete. */
  onDelete?: () => void;
  deleting?: boolean;
  extraActions?: ReactNode;
  tabs: RecordTab[];
}

/** A record's page: back link, title, actions (edit, delete with confirm) and tabs. */
export function RecordDetailLayout({ title, subtitle, back, onEdit, onDelete, deleting, extraActions, tabs }: Props) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
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
          {onEdit && (
            <Button leftSection={<IconPencil size={16} aria-hidden />} onClick={onEdit}>
              {t("records.detail.edit")}
            </Button>
          )}
          {onDelete && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setConfirming(true)}>
              {t("records.detail.delete")}
            </Button>
          )}
        </Group>
      </Group>
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
