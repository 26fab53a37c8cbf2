import { ActionIcon, Button, Group, Modal, Select, Stack, TextInput } from "@mantine/core";
import { IconDeviceFloppy, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { useDeleteImportMapping, useImportMappings, useSaveImportMapping } from "../api/imports.ts";
import type { ImportKind } from "../kinds.ts";
import { importFailureKey } from "../utils/import-errors.ts";
import type { Mapping } from "../utils/mapping.ts";

const NAME_MAX = 100;

interface Props {
  kind: ImportKind;
  mapping: Mapping;
  onApply(mapping: Mapping, name: string): void;
}

/** The user's saved mappings of this kind: one applied by choosing it, the current one saved under a name, one deleted. */
export function SavedMappings({ kind, mapping, onApply }: Props) {
  const { t } = useTranslation();
  const mappings = useImportMappings(kind);
  const save = useSaveImportMapping(kind);
  const remove = useDeleteImportMapping(kind);
  const [chosen, setChosen] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const saved = mappings.data ?? [];
  const current = saved.find((entry) => entry.id === chosen);

  const choose = (id: string | null) => {
    setChosen(id);
    const entry = saved.find((candidate) => candidate.id === id);
    if (entry) onApply(entry.mapping, entry.name);
  };

  const submit = () => {
    const trimmed = name.trim();
    if (trimmed === "" || trimmed.length > NAME_MAX) {
      setNameError(t("modules.importExport.mapping.nameRequired"));
      return;
    }
    save.mutate(
      { name: trimmed, mapping },
      {
        onSuccess: (entry) => {
          notifySuccess(t("modules.importExport.mapping.savedDone", { name: entry.name }));
          setChosen(entry.id);
          setSaving(false);
        },
        onError: (error) => notifyFailure(t("modules.importExport.mapping.saveFailed"), t(importFailureKey(error))),
      },
    );
  };

  const deleteChosen = () => {
    if (!current) return;
    remove.mutate(current.id, {
      onSuccess: () => {
        notifySuccess(t("modules.importExport.mapping.deleted", { name: current.name }));
        setChosen(null);
      },
      onError: (error) => notifyFailure(t("modules.importExport.mapping.deleteFailed"), t(importFailureKey(error))),
    });
  };

  return (
    <Group align="flex-end" gap="xs" wrap="wrap">
      <Select
        label={t("modules.importExport.mapping.saved")}
        placeholder={
          mappings.isError
            ? t("modules.importExport.mapping.savedLoadError")
            : saved.length === 0
              ? t("modules.importExport.mapping.savedNone")
              : t("modules.importExport.mapping.savedPlaceholder")
        }
        data={saved.map((entry) => ({ value: entry.id, label: entry.name }))}
        value={chosen}
        onChange={choose}
        disabled={saved.length === 0}
        clearable
        w={{ base: "100%", xs: 240 }}
      />
      {current && (
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t("modules.importExport.mapping.delete", { name: current.name })}
          onClick={deleteChosen}
          loading={remove.isPending}
        >
          <IconTrash size={16} aria-hidden />
        </ActionIcon>
      )}
      <Button
        variant="default"
        leftSection={<IconDeviceFloppy size={16} aria-hidden />}
        onClick={() => {
          setName(current?.name ?? "");
          setNameError(null);
          setSaving(true);
        }}
        disabled={Object.keys(mapping).length === 0}
      >
        {t("modules.importExport.mapping.save")}
      </Button>
      <Modal opened={saving} onClose={() => setSaving(false)} title={t("modules.importExport.mapping.saveTitle")}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Stack gap="md">
            <TextInput
              label={t("modules.importExport.mapping.name")}
              placeholder={t("modules.importExport.mapping.namePlaceholder")}
              description={t("modules.importExport.mapping.nameHint")}
              value={name}
              onChange={(event) => {
                setName(event.currentTarget.value);
                setNameError(null);
              }}
              error={nameError}
              maxLength={NAME_MAX}
              data-autofocus
              required
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setSaving(false)}>
                {t("modules.importExport.cancel")}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {t("modules.importExport.mapping.save")}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Group>
  );
}
