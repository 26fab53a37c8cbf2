import { Alert, Button, Checkbox, Group, Modal, Select, Stack, Table, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { displayName } from "@/lib/display-name.ts";
import { useTransferRecords } from "../api/mutations.ts";
import { useRecordAnalysis, useTransferCandidates } from "../api/queries.ts";
import { transferKinds } from "@/modules/registry.ts";
import type { OrganizationUser } from "../api/schemas.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { anyKindChosen, defaultTransferOptions, transferOptionsOf, type TransferOptions } from "../utils/transfer.ts";
import { userAdminError } from "../utils/user-errors.ts";
import { notifyUserFailure } from "./notify.ts";

interface Props {
  scope: OrganizationScope;
  user: OrganizationUser;
  onClose(): void;
}

/**
 * Moves a user's records to another member: what they own is analysed first, the receiver
 * is chosen from the organization's members, the kinds start at the spec's defaults, and the
 * transfer is confirmed before it runs.
 */
export function TransferRecordsModal({ scope, user, onClose }: Props) {
  const { t } = useTranslation();
  const analysis = useRecordAnalysis(scope, user.id);
  const candidates = useTransferCandidates(scope, user.id);
  const transfer = useTransferRecords(scope);
  const [receiverId, setReceiverId] = useState<string | null>(null);
  const [options, setOptions] = useState<TransferOptions>(defaultTransferOptions);
  const [confirming, setConfirming] = useState(false);

  const receiver = candidates.data?.find((candidate) => candidate.id === receiverId);
  const choose = (chosen: string[]) => {
    setOptions(transferOptionsOf(chosen));
    setConfirming(false);
  };

  const onConfirm = () => {
    if (!receiver) return;
    transfer.mutate(
      { fromUserId: user.id, toUserId: receiver.id, options },
      {
        onSuccess: (result) => {
          const count = Object.values(result.transferred ?? {}).reduce((sum, moved) => sum + (moved ?? 0), 0);
          notifySuccess(t("adminUsers.notifications.transferred", { count }));
          onClose();
        },
        onError: (error) => {
          notifyUserFailure(t, error);
          setConfirming(false);
        },
      },
    );
  };

  const loading = analysis.isPending || candidates.isPending;
  const loadFailure = analysis.isError ? analysis.error : candidates.isError ? candidates.error : undefined;

  return (
    <Modal opened onClose={onClose} title={t("adminUsers.transferModal.title")} closeButtonProps={{ "aria-label": t("adminUsers.form.close") }} size="lg">
      <Stack>
        <Text size="sm">{t("adminUsers.transferModal.description", { name: displayName(user) })}</Text>
        {loading && <LoadingScreen compact />}
        {loadFailure !== undefined && (
          <Alert color="red" title={t("adminUsers.transferModal.analysisError")}>
            {t(userAdminError(loadFailure).key)}
            <Group mt="sm">
              <Button
                variant="default"
                size="xs"
                onClick={() => {
                  void analysis.refetch();
                  void candidates.refetch();
                }}
              >
                {t("common.retry")}
              </Button>
            </Group>
          </Alert>
        )}
        {analysis.isSuccess && candidates.isSuccess && (
          <>
            <Table withTableBorder aria-label={t("adminUsers.transferModal.counts")}>
              <Table.Tbody>
                {transferKinds.map((kind) => (
                  <Table.Tr key={kind}>
                    <Table.Th scope="row">{t(`adminUsers.kinds.${kind}`)}</Table.Th>
                    <Table.Td ta="right">{analysis.data.counts?.[kind] ?? 0}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Text size="sm" fw={500}>
              {t("adminUsers.transferModal.total", { count: analysis.data.total })}
            </Text>

            {candidates.data.length === 0 ? (
              <Alert color="orange">{t("adminUsers.transferModal.noReceivers")}</Alert>
            ) : (
              <Select
                label={t("adminUsers.transferModal.receiver")}
                placeholder={t("adminUsers.transferModal.receiverPlaceholder")}
                data={candidates.data.map((candidate) => ({
                  value: candidate.id,
                  label: `${displayName(candidate)} (${candidate.email})`,
                }))}
                value={receiverId}
                onChange={(value) => {
                  setReceiverId(value);
                  setConfirming(false);
                }}
                searchable
                required
              />
            )}

            <Checkbox.Group
              label={t("adminUsers.transferModal.kinds")}
              value={transferKinds.filter((kind) => options[kind])}
              onChange={choose}
              error={anyKindChosen(options) ? undefined : t("adminUsers.transferModal.chooseKind")}
            >
              <Stack gap="xs" mt="xs">
                {transferKinds.map((kind) => (
                  <Checkbox key={kind} value={kind} label={t(`adminUsers.kinds.${kind}`)} />
                ))}
              </Stack>
            </Checkbox.Group>

            {confirming && receiver && (
              <Alert color="blue">{t("adminUsers.transferModal.confirm", { name: displayName(receiver) })}</Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={confirming ? () => setConfirming(false) : onClose}>
                {t(confirming ? "adminUsers.transferModal.back" : "adminUsers.form.cancel")}
              </Button>
              {confirming ? (
                <Button loading={transfer.isPending} onClick={onConfirm}>
                  {t("adminUsers.transferModal.confirmSubmit")}
                </Button>
              ) : (
                <Button disabled={!receiver || !anyKindChosen(options)} onClick={() => setConfirming(true)}>
                  {t("adminUsers.transferModal.submit")}
                </Button>
              )}
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
