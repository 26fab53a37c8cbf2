import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import type { FieldValues } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { CustomFieldsSection } from "./custom-fields/CustomFieldsSection.tsx";
import type { SavedVersion } from "./record-api.ts";
import { StaleRecordAlert } from "./StaleRecordAlert.tsx";
import type { RecordForm } from "./use-record-form.ts";

interface Props<Record_ extends SavedVersion, Form extends FieldValues> {
  /** The form (useRecordForm). */
  record: RecordForm<Record_, Form>;
  /** The module's inputs; the custom fields follow them. */
  children: ReactNode;
  opened?: boolean;
  /** Shown instead of the form (e.g. the likely duplicates before a new record is created). */
  instead?: ReactNode;
  /** Something else of the module's is under way (a duplicates check, the deal's contacts). */
  busy?: boolean;
}

/**
 * The frame of every record form: the modal titled for a new or an edited record, the stale
 * record's alert with its reload, the module's inputs, the custom fields, Cancel and the save
 * button; closing with unsaved changes asks first.
 */
export function RecordFormModal<Record_ extends SavedVersion, Form extends FieldValues>({
  record,
  children,
  opened = true,
  instead,
  busy = false,
}: Props<Record_, Form>) {
  const { t } = useTranslation();
  return (
    <>
      <Modal
        opened={opened}
        onClose={record.requestClose}
        size="xl"
        title={record.text(record.base ? "editTitle" : "createTitle")}
        closeButtonProps={{ "aria-label": t("records.form.close") }}
      >
        {instead ?? (
          <form onSubmit={record.submit} noValidate>
            <Stack>
              {record.stale && <StaleRecordAlert onReload={record.reload} />}
              {children}
              <CustomFieldsSection fields={record.custom.fields} control={record.form.control} />
              <Group justify="flex-end">
                <Button variant="default" onClick={record.requestClose}>
                  {t("records.form.cancel")}
                </Button>
                <Button type="submit" loading={busy || record.waiting}>
                  {record.text(record.base ? "save" : "create")}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Modal>
      <UnsavedChangesModal record={record} opened={opened} />
    </>
  );
}

/** The question closing a record form with unsaved changes asks (a modal's, or a page's form such as the quote editor). */
export function UnsavedChangesModal<Record_ extends SavedVersion, Form extends FieldValues>({
  record,
  opened = true,
}: {
  record: RecordForm<Record_, Form>;
  opened?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened && record.asking} onClose={record.keepEditing} title={t("records.form.unsaved.title")} size="sm" centered>
      <Stack>
        <Text size="sm">{t("records.form.unsaved.description")}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={record.keepEditing} data-autofocus>
            {t("records.form.unsaved.keep")}
          </Button>
          <Button color="red" onClick={record.close}>
            {t("records.form.unsaved.discard")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
