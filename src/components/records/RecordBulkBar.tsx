import { Button, Group, Modal, NativeSelect, Paper, Stack, Text, Tooltip } from "@mantine/core";
import { useState, type ReactElement } from "react";
import { useTranslation } from "react-i18next";
import { notifyFailure, notifyPartial, notifySuccess } from "@/components/notify.ts";
import { failureKey } from "@/lib/errors.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import { splitByAccess, type RecordAction } from "./record-access.ts";
import { memberName, useBulkUpdate, useDeleteRecords, useOrganizationMembers, type RecordBase } from "./record-api.ts";
import type { RecordFilter } from "./record-config.ts";
import { batchReport, refusedBatchOutcome, type BatchOutcome, type BatchVerb } from "./record-refusals.ts";
import { useRecordAccess } from "./use-record-access.ts";

interface Props {
  module: ModuleKey;
  rows: RecordBase[];
  statusField?: RecordFilter;
  onDone(): void;
  /** Offered (as "Merge") to whoever may edit, when given: the list gives it with exactly two rows selected. */
  onMerge?(): void;
}

/**
 * What can be done to the selected rows at once: change owner or status, merge two, delete
 * (confirmed). With a role that may change only its own records, the rows of other members
 * are announced before (and the action disabled when every row is another's); after, what
 * was done and what was refused, with the reason, as the database answered.
 */
export function RecordBulkBar({ module, rows, statusField, onDone, onMerge }: Props) {
  const { t } = useTranslation();
  const { permissions, userId } = useRecordAccess(module);
  const allowed = permissions ?? {};
  const owners = rows.map((row) => row.owner_id);
  const split = (action: RecordAction) => splitByAccess(permissions, action, owners, userId);
  const editSplit = split("edit");
  const deleteSplit = split("delete");
  // Giving records to someone else needs edit rights on every record (scope all).
  const members = useOrganizationMembers(allowed.edit === "all");
  const update = useBulkUpdate(module);
  const remove = useDeleteRecords(module);
  const [owner, setOwner] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const ids = rows.map((row) => row.id);

  /** What a batch did and refused, in one notification: green when all was done, orange when some was refused, red when none was done. */
  const report = (verb: BatchVerb, outcome: BatchOutcome) => {
    const { tone, parts } = batchReport(verb, outcome);
    const message = parts.map((part) => t(part.key, { count: part.count })).join(" ");
    if (tone === "success") notifySuccess(message);
    else if (tone === "partial") notifyPartial(t("records.batch.partialTitle"), message);
    else notifyFailure(t("records.bulk.failed"), message);
  };
  const fail = (verb: BatchVerb) => (error: unknown) => {
    const refused = refusedBatchOutcome(error);
    if (refused) report(verb, refused);
    else notifyFailure(t("records.bulk.failed"), t(failureKey(error, "records.form.errors", ["permission_denied", "invalid_input"])));
  };
  const apply = (values: Record<string, unknown>) =>
    update.mutate(
      { ids, values },
      {
        onSuccess: (outcome) => {
          report("updated", outcome);
          setOwner(null);
          setStatus(null);
          onDone();
        },
        onError: fail("updated"),
      },
    );
  /** A bulk action the role allows on its own records only, with none of those selected: disabled, the reason on hover. */
  const noneOwn = (action: RecordAction) => (action === "edit" ? editSplit : deleteSplit).allowed === 0;
  const guarded = (action: RecordAction, button: ReactElement) =>
    noneOwn(action) ? <Tooltip label={t("records.bulk.noneOwn")}>{button}</Tooltip> : button;

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
              {guarded(
                "edit",
                <Button variant="default" disabled={status === null} data-disabled={noneOwn("edit") || undefined}
                  loading={update.isPending} onClick={() => status && !noneOwn("edit") && apply({ [statusField.key]: status })}>
                  {t("records.bulk.changeStatus")}
                </Button>,
              )}
            </Group>
          )}
          {onMerge && allowed.edit !== undefined && (
            <Button variant="default" onClick={onMerge}>
              {t("records.merge.action")}
            </Button>
          )}
          {allowed.delete !== undefined &&
            guarded(
              "delete",
              <Button color="red" variant="light" data-disabled={noneOwn("delete") || undefined}
                aria-disabled={noneOwn("delete") || undefined} onClick={() => !noneOwn("delete") && setConfirming(true)}>
                {t("records.bulk.delete")}
              </Button>,
            )}
        </Group>
        {(editSplit.notOwner > 0 || deleteSplit.notOwner > 0) && (
          <Text size="sm" c="dimmed">
            {t("records.bulk.othersSelected", { count: Math.max(editSplit.notOwner, deleteSplit.notOwner) })}
          </Text>
        )}
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t("records.bulk.deleteTitle")}
        closeButtonProps={{ "aria-label": t("records.form.close") }}>
        <Stack>
          <Text>{t("records.bulk.deleteConfirm", { count: deleteSplit.allowed })}</Text>
          {deleteSplit.notOwner > 0 && <Text size="sm">{t("records.batch.deleted.notOwner", { count: deleteSplit.notOwner })}</Text>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t("records.bulk.cancel")}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(ids, {
                  onSuccess: (outcome) => {
                    report("deleted", outcome);
                    setConfirming(false);
                    onDone();
                  },
                  onError: (error) => {
                    setConfirming(false);
                    fail("deleted")(error);
                  },
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
