import "@mantine/dropzone/styles.css";
import { Alert, Button, CloseButton, Group, Progress, Stack, Text, TextInput } from "@mantine/core";
import { Dropzone, type FileRejection } from "@mantine/dropzone";
import { IconCloudUpload, IconFileUpload } from "@tabler/icons-react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import { isUploadCancelled, useUploadDocument, type DocumentRow } from "./document-api.ts";
import type { DocumentLinkModule } from "./document-links.ts";
import {
  ACCEPTED_EXTENSIONS,
  ACCEPTED_FILE_TYPES,
  checkFileBeforeUpload,
  formatFileSize,
  MAX_FILE_BYTES,
  titleFromFileName,
  documentFailureKey,
  type UploadFailureCode,
} from "./document-files.ts";

interface Props {
  /** The record a new document is linked to. */
  link?: { module: DocumentLinkModule; recordId: string };
  /** A new version of this document (no title is asked). */
  newVersionOf?: { id: string; title: string };
  onUploaded?: (document: DocumentRow) => void;
}

type Problem = { name: string; key: ReturnType<typeof documentFailureKey> | `documentKit.errors.${UploadFailureCode}` };

/**
 * Uploads one file: dropped on the zone or chosen with its button (keyboard and screen
 * readers use the button), the limits stated beside it, checked in the browser first (size,
 * name ending) and by the server (size, the file's first bytes, the quota). While it is sent a
 * progress bar shows and the upload can be cancelled; a refusal is told by its code.
 */
export function DocumentUploader({ link, newVersionOf, onUploaded }: Props) {
  const { t, i18n } = useTranslation();
  const upload = useUploadDocument();
  const openRef = useRef<() => void>(null);
  const cancelRef = useRef<AbortController | null>(null);
  const [title, setTitle] = useState("");
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const limitsId = useId();
  const size = formatFileSize(MAX_FILE_BYTES, i18n.resolvedLanguage);
  // Leaving the page or closing the dialog ends an upload under way.
  useEffect(() => () => cancelRef.current?.abort(), []);

  const send = (file: File) => {
    setProblem(null);
    const early = checkFileBeforeUpload(file);
    if (early) {
      setProblem({ name: file.name, key: `documentKit.errors.${early}` });
      return;
    }
    const controller = new AbortController();
    cancelRef.current = controller;
    setProgress({ name: file.name, fraction: 0 });
    upload.mutate(
      {
        file,
        fileName: file.name,
        title: newVersionOf ? undefined : title.trim() || titleFromFileName(file.name),
        module: link?.module,
        recordId: link?.recordId,
        documentId: newVersionOf?.id,
        signal: controller.signal,
        onProgress: (fraction) => setProgress({ name: file.name, fraction }),
      },
      {
        onSuccess: ({ document }) => {
          setTitle("");
          notifySuccess(
            newVersionOf
              ? t("documentKit.upload.versionUploaded", { title: newVersionOf.title, version: document.current_version })
              : t("documentKit.upload.uploaded", { name: file.name }),
          );
          onUploaded?.(document);
        },
        onError: (error) => {
          if (isUploadCancelled(error)) notifySuccess(t("documentKit.upload.cancelled"));
          else setProblem({ name: file.name, key: documentFailureKey(error) });
        },
        onSettled: () => {
          cancelRef.current = null;
          setProgress(null);
        },
      },
    );
  };

  const onReject = (rejections: FileRejection[]) => {
    const [first] = rejections;
    if (!first) return;
    const code = first.errors[0]?.code;
    const key: UploadFailureCode = code === "file-too-large" ? "file_too_large" : code === "too-many-files" ? "invalid_input" : "file_type_not_allowed";
    setProblem({ name: first.file.name, key: `documentKit.errors.${key}` });
  };

  const busy = progress !== null;
  return (
    <Stack gap="xs">
      {!newVersionOf && (
        <TextInput
          label={t("documentKit.upload.title")}
          description={t("documentKit.upload.titleDescription")}
          value={title}
          onChange={(event) => setTitle(event.currentTarget.value)}
          disabled={busy}
          maxLength={200}
        />
      )}
      <Dropzone
        onDrop={(files) => files[0] && send(files[0])}
        onReject={onReject}
        maxSize={MAX_FILE_BYTES}
        accept={ACCEPTED_FILE_TYPES as Record<string, string[]>}
        multiple={false}
        openRef={openRef}
        activateOnClick={false}
        activateOnKeyboard={false}
        disabled={busy}
        // The picker opens from the button below; the drop zone's own input stays out of the accessibility tree.
        inputProps={{ "aria-hidden": true, accept: ACCEPTED_EXTENSIONS.join(",") }}
        p="md"
      >
        <Group justify="center" gap="sm" wrap="wrap" style={{ pointerEvents: "none" }}>
          <IconCloudUpload size={32} aria-hidden stroke={1.5} />
          <Text ta="center">{t("documentKit.upload.drop")}</Text>
        </Group>
      </Dropzone>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text id={limitsId} size="xs" c="dimmed" style={{ flex: "1 1 14rem" }}>
          {t("documentKit.upload.limits", { size })}
        </Text>
        <Button
          variant="filled"
          size="xs"
          leftSection={<IconFileUpload size={14} aria-hidden />}
          onClick={() => openRef.current?.()}
          disabled={busy}
          aria-describedby={limitsId}
        >
          {newVersionOf ? t("documentKit.upload.newVersion") : t("documentKit.upload.choose")}
        </Button>
      </Group>
      {progress && (
        <Group gap="xs" wrap="nowrap" align="center">
          <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
            <Text size="sm" style={{ overflowWrap: "anywhere" }}>
              {t("documentKit.upload.uploading", { name: progress.name })}
            </Text>
            <Progress
              value={Math.round(progress.fraction * 100)}
              aria-label={t("documentKit.upload.progressLabel")}
              animated={progress.fraction >= 1}
            />
          </Stack>
          <CloseButton aria-label={t("documentKit.upload.cancel")} onClick={() => cancelRef.current?.abort()} />
        </Group>
      )}
      {problem && (
        <Alert color="red" role="alert" title={t("documentKit.upload.failed", { name: problem.name })} withCloseButton
          closeButtonLabel={t("documentKit.preview.close")} onClose={() => setProblem(null)}>
          {t(problem.key, { size })}
        </Alert>
      )}
    </Stack>
  );
}
