import "@mantine/dropzone/styles.css";
import { Alert, Button, Group, Loader, Paper, Select, Stack, Text } from "@mantine/core";
import { Dropzone, type FileRejection } from "@mantine/dropzone";
import { IconFileSpreadsheet, IconFileUpload } from "@tabler/icons-react";
import { useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { formatCount } from "@/lib/format.ts";
import { importLimits, type ParsedSheet } from "@/lib/spreadsheet/index.ts";
import { importKind, type ImportKind } from "../kinds.ts";
import { limitTexts } from "../utils/import-errors.ts";

/**
 * The files the picker and the drop zone take: CSV (Windows often names it an Excel type),
 * Excel's XLSX, and tab- or semicolon-separated text.
 */
const ACCEPTED: Record<string, string[]> = {
  "text/csv": [".csv"],
  "application/vnd.ms-excel": [".csv"],
  "text/plain": [".txt", ".csv"],
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": [".xlsx"],
};
const ACCEPTED_EXTENSIONS = ".csv,.xlsx,.txt";

const encodingKeys = { "utf-8": "utf8", "utf-16le": "utf16", "windows-1254": "windows1254", xlsx: "xlsx" } as const;
const delimiterKeys = { ";": "semicolon", ",": "comma", "\t": "tab" } as const;

export interface LoadedFile {
  file: File;
  sheet: ParsedSheet;
}

interface Props {
  kinds: readonly ImportKind[];
  kind: ImportKind | null;
  onKind(kind: ImportKind): void;
  /** Resuming an import: its kind is fixed and the same file is asked for. */
  resumeFileName?: string;
  loaded: LoadedFile | null;
  parsing: string | null;
  problem: { name: string; message: string } | null;
  onFile(file: File): void;
  onReject(message: { name: string; message: string }): void;
}

/** Step 1: what is imported, and the file (dropped or chosen), with the limits stated and the file's shape once read. */
export function FileStep({ kinds, kind, onKind, resumeFileName, loaded, parsing, problem, onFile, onReject }: Props) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const openRef = useRef<() => void>(null);
  const limitsId = useId();
  const limits = limitTexts(language);

  const reject = (rejections: FileRejection[]) => {
    const [first] = rejections;
    if (!first) return;
    const code = first.errors[0]?.code;
    const key = code === "file-too-large" ? "size" : code === "too-many-files" ? "many" : "type";
    onReject({ name: first.file.name, message: t(`modules.importExport.file.rejected.${key}`, limits) });
  };

  return (
    <Stack gap="md">
      <Select
        label={t("modules.importExport.file.kind")}
        placeholder={t("modules.importExport.file.kindPlaceholder")}
        data={kinds.map((value) => ({ value, label: t(importKind(value).label) }))}
        value={kind}
        onChange={(value) => value && onKind(value as ImportKind)}
        allowDeselect={false}
        disabled={resumeFileName !== undefined || parsing !== null}
        w={{ base: "100%", sm: 320 }}
      />
      {resumeFileName !== undefined && (
        <Alert color="blue" title={t("modules.importExport.resume.chooseTitle")}>
          {t("modules.importExport.resume.chooseFile", { file: resumeFileName })}
        </Alert>
      )}
      <Dropzone
        onDrop={(files) => files[0] && onFile(files[0])}
        onReject={reject}
        maxSize={importLimits.maxFileBytes}
        accept={ACCEPTED}
        multiple={false}
        openRef={openRef}
        activateOnClick={false}
        activateOnKeyboard={false}
        disabled={kind === null || parsing !== null}
        // The picker opens from the button below; the drop zone's own input stays out of the accessibility tree.
        inputProps={{ "aria-hidden": true, accept: ACCEPTED_EXTENSIONS }}
        p="xl"
      >
        <Stack align="center" gap="xs" style={{ pointerEvents: "none" }}>
          <IconFileSpreadsheet size={40} stroke={1.5} aria-hidden />
          <Text ta="center">{kind === null ? t("modules.importExport.file.chooseKindFirst") : t("modules.importExport.file.drop")}</Text>
        </Stack>
      </Dropzone>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text id={limitsId} size="sm" c="dimmed" style={{ flex: "1 1 16rem" }}>
          {t("modules.importExport.file.limits", limits)}
        </Text>
        <Button
          leftSection={<IconFileUpload size={16} aria-hidden />}
          onClick={() => openRef.current?.()}
          disabled={kind === null || parsing !== null}
          aria-describedby={limitsId}
        >
          {loaded ? t("modules.importExport.file.change") : t("modules.importExport.file.choose")}
        </Button>
      </Group>
      {parsing !== null && (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text size="sm">{t("modules.importExport.file.parsing", { name: parsing })}</Text>
        </Group>
      )}
      {problem && (
        <Alert color="red" role="alert" title={t("modules.importExport.file.readFailed", { name: problem.name })}>
          {problem.message}
        </Alert>
      )}
      {loaded && parsing === null && (
        <Paper withBorder p="md">
          <Stack gap={4}>
            <Text fw={600} style={{ overflowWrap: "anywhere" }}>
              {t("modules.importExport.file.parsed", {
                name: loaded.file.name,
                rows: formatCount(loaded.sheet.rows.length, language),
                columns: formatCount(loaded.sheet.headers.length, language),
              })}
            </Text>
            <Text size="sm" c="dimmed">
              {[
                t(`modules.importExport.file.encodings.${encodingKeys[loaded.sheet.encoding]}`),
                loaded.sheet.delimiter && t(`modules.importExport.file.delimiters.${delimiterKeys[loaded.sheet.delimiter]}`),
                loaded.sheet.sheetName && t("modules.importExport.file.sheet", { name: loaded.sheet.sheetName }),
              ]
                .filter(Boolean)
                .join(" · ")}
            </Text>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
