import { Button, Group, Modal, NativeSelect, Paper, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { failureKey } from "@/lib/errors.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import { memberName, useBulkUpdate, useDeleteRecords, useOrganizationMembers, type RecordBase } from "./record-api.ts";
import type { RecordFilter } from "./record-config.ts";

interface Props {
  module: ModuleKey;
  rows: RecordBase[];
  statusField?: RecordFilter;
  onDone(): void;
  /** Offered (as "Merge") to whoever may edit, when given: the list gives it with exactly two rows selected. */
  onMerge?(): void;
}

/** What can be done to the selected rows at once: change owner or status, merge two, delete (confirmed). */
export function RecordBulkBar({ module, rows, statusField, onDone, onMerge }: Props) {
  const { t } = useTranslation();
  const permissions = useMyPermissions();
  const allowed = permissions.data?.permissions[module] ?? {};
  // Giving records to someone else needs edit rights on every record (scope all).
  const members = useOrganizationMembers(allowed.edit === "all");
  const update = useBulkUpdate(module);
  const remove = useDeleteRecords(module);
  const [owner, setOwner] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const ids = rows.map((row) => row.id);

  const fail = (error: unknown) =>
    notifyFailure(t("records.bulk.failed"), t(failureKey(error, "records.form.errors", ["permission_denied", "invalid_input"])));
  const reportSkipped = (skipped: number) => {
    if (skipped > 0) notifyFailure(t("records.bulk.failed"), t("records.bulk.skipped", { count: skipped }));
  };
  const apply = (values: Record<string, unknown>) =>
    update.mutate(
      { ids, values },
      {
        onSuccess: ({ updated, skipped }) => {
          notifySuccess(t("records.bulk.updated", { count: updated }));
          reportSkipped(skipped);
          setOwner(null);
          setStatus(null);
          onDone();
        },
        onError: fail,
      },
    );

  return (
    <Paper withBorder p="sm" role="region" aria-label={t("records.bulk.label")}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600} aria-live="polite">
            {t("records.bulk.selected", { count: rows.length })}
          </Text>
          <Button variant="subtle" size="xs" onClick={onDone}>
            {t("records.bulk.clear")}
          </Button>
        </Group>
        <Group align="flex-end" gap="sm">
          {allowed.edit === "all" && members.isSuccess && (
            <Group align="flex-end" gap="xs" wrap="nowrap">
              <NativeSelect
                label={t("records.bulk.newOwner")}
                data={[{ value: "", label: "—" }, ...members.data.map((member) => ({ value: member.id, label: memberName(member) }))]}
                value={owner ?? ""}
                onChange={(event) => setOwner(event.currentTarget.value || null)}
                w={200}
              />
              <Button variant="default" disabled={owner === null} loading={update.isPending}
                onClick={() => owner && apply({ owner_id: owner })}>
                {t("records.bulk.changeOwner")}
              </Button>
            </Group>
          )}
          {allowed.edit !== undefined && statusField && (
            <Group align="flex-end" gap="xs" wrap="nowrap">
              <NativeSelect
                label={t("records.bulk.newStatus")}
                data={[{ value: "", label: "—" }, ...statusField.options]}
                value={status ?? ""}
                onChange={(event) => setStatus(event.currentTarget.value || null)}
                w={160}
              />
              <Button variant="default" disabled={status === null} loading={update.isPending}
                onClick={() => status && apply({ [statusField.key]: status })}>
                {t("records.bulk.changeStatus")}
              </Button>
            </Group>
          )}
          {onMerge && allowed.edit !== undefined && (
            <Button variant="default" onClick={onMerge}>
              {t("records.merge.action")}
            </Button>
          )}
          {allowed.delete !== undefined && (
            <Button color="red" variant="light" onClick={() => setConfirming(true)}>
              {t("records.bulk.delete")}
            </Button>
          )}
        </Group>
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t("records.bulk.deleteTitle")}
        closeButtonProps={{ "aria-label": t("records.form.close") }}>
        <Stack>
          <Text>{t("records.bulk.deleteConfirm", { count: rows.length })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t("records.bulk.cancel")}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(ids, {
                  onSuccess: ({ changed, skipped }) => {
                    notifySuccess(t("records.bulk.deleted", { count: changed }));
                    reportSkipped(skipped);
                    setConfirming(false);
                    onDone();
                  },
                  onError: fail,
                })
              }
            >
              {t("records.bulk.delete")}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
