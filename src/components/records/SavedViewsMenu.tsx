import { ActionIcon, Badge, Button, Checkbox, Group, Menu, Modal, Stack, Text, TextInput } from "@mantine/core";
import { IconBookmark, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { failureKey } from "@/lib/errors.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import { useDeleteView, useSavedViews, useSaveView } from "./record-api.ts";
import { applyView, viewOf, type KnownKeys, type RecordListState } from "./record-list-state.ts";

interface Props {
  module: ModuleKey;
  state: RecordListState;
  initial: RecordListState;
  /** The columns, filters and sorts the list has now: a view's others (custom fields deleted since) are dropped. */
  known: KnownKeys;
  onApply(state: RecordListState): void;
}

/** The saved views of a list: apply one, save the list as it is (personal or shared), delete one's own. */
export function SavedViewsMenu({ module, state, initial, known, onApply }: Props) {
  const { t } = useTranslation();
  const views = useSavedViews(module);
  const save = useSaveView(module);
  const remove = useDeleteView(module);
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState("");
  const [shared, setShared] = useState(false);

  const fail = (error: unknown) =>
    notifyFailure(t("records.views.failed"), t(failureKey(error, "records.form.errors", ["not_found", "permission_denied", "invalid_input"])));
  const submit = () => {
    const trimmed = name.trim();
    if (trimmed === "") return;
    save.mutate(
      { name: trimmed, shared, definition: viewOf(state) },
      {
        onSuccess: () => {
          notifySuccess(t("records.views.saved", { name: trimmed }));
          setSaving(false);
          setName("");
          setShared(false);
        },
        onError: fail,
      },
    );
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="default" leftSection={<IconBookmark size={16} aria-hidden />}>
            {t("records.views.menu")}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {(views.data ?? []).length === 0 && (
            <Text size="sm" c="dimmed" px="sm" py={4}>
              {t("records.views.none")}
            </Text>
          )}
          {(views.data ?? []).map((view) => (
            <Group key={view.id} gap={4} wrap="nowrap">
              <Menu.Item
                onClick={() => {
                  onApply(applyView(view.definition, initial, known));
                  notifySuccess(t("records.views.applied", { name: view.name }));
                }}
                rightSection={
                  <Badge size="xs" variant="dot" color={view.is_shared ? "teal" : "gray"}>
                    {view.is_shared ? t("records.views.sharedBadge") : t("records.views.personal")}
                  </Badge>
                }
              >
                {view.name}
              </Menu.Item>
              {view.is_mine !== false && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t("records.views.delete", { name: view.name })}
                  onClick={() =>
                    remove.mutate(view.id, { onSuccess: () => notifySuccess(t("records.views.deleted")), onError: fail })
                  }
                >
                  <IconTrash size={14} aria-hidden />
                </ActionIcon>
              )}
            </Group>
          ))}
          <Menu.Divider />
          <Menu.Item onClick={() => setSaving(true)}>{t("records.views.save")}</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal
        opened={saving}
        onClose={() => setSaving(false)}
        title={t("records.views.saveTitle")}
        closeButtonProps={{ "aria-label": t("records.form.close") }}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Stack>
            <TextInput
              label={t("records.views.name")}
              required
              maxLength={100}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              data-autofocus
            />
            <Checkbox label={t("records.views.shared")} checked={shared} onChange={(event) => setShared(event.currentTarget.checked)} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setSaving(false)}>
                {t("records.form.cancel")}
              </Button>
              <Button type="submit" loading={save.isPending} disabled={name.trim() === ""}>
                {t("records.views.save")}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
