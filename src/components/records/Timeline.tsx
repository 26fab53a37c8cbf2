import { Badge, Button, Group, Paper, Stack, Text, Textarea, Timeline as MantineTimeline } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { activityActorName, activitySentence, looksLikeId } from "@/components/activity/activity-actions.ts";
import { formatDateTime } from "@/lib/format.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import { mailErrorCodeKey } from "@/components/documents/mail-text.ts";
import { useAddNote, useTimeline, type TimelineEntry } from "./record-api.ts";
import { recordFailureKey } from "./record-form.ts";
import { formatCustomValue } from "./custom-fields/custom-field-values.ts";
import { customLabel, useCustomFields } from "./custom-fields/custom-fields.ts";

interface Props {
  module: ModuleKey;
  id: string;
  /** A field's label in the module's words. */
  fieldLabel(field: string): string;
  /** A stored value as the user reads it (default: as text, lists joined). */
  formatValue?(field: string, value: unknown): string | null;
  canAddNote: boolean;
}

function plain(value: unknown): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (Array.isArray(value)) return value.length === 0 ? null : value.map((item) => (typeof item === "object" ? JSON.stringify(item) : String(item))).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value as string | number | boolean);
}

/** A field that holds a person's id (the owner, who completed or changed it). */
function isPersonField(field: string): boolean {
  return field === "owner_id" || field.endsWith("_by");
}

/**
 * A record's notes, field changes, events and e-mails, newest first, each a sentence with who did it
 * ("Ayşe Yılmaz changed Customer: Işık → Çınar", "Ayşe Yılmaz renewed the contract", "E-posta
 * gönderildi: … → a@b.com" with its attachment's title; a failed one in red with why); linked
 * records and people by name, never by id. With a box for a new note.
 */
export function Timeline({ module, id, fieldLabel, formatValue, canAddNote }: Props) {
  const { t, i18n } = useTranslation();
  const timeline = useTimeline(module, id);
  const addNote = useAddNote(module, id);
  // The fields drawn from their declarations (the module labels and formats its own).
  const customFields = (useCustomFields(module).data ?? []).filter((field) => field.drawn);
  /** A custom field's declaration (hidden ones too: their history stays readable). */
  const customField = (field: string) => customFields.find((candidate) => candidate.key === field);
  const [body, setBody] = useState("");

  const actorOf = (entry: TimelineEntry) =>
    activityActorName({ id: entry.by, name: entry.by_name, deleted: entry.by_deleted }, (key) => t(key));
  const labelOf = (field: string) => {
    const custom = customField(field);
    if (custom) return customLabel(custom, i18n.resolvedLanguage);
    const label = fieldLabel(field);
    if (field === "owner_id" && label === field) return t("records.timeline.ownerField");
    // A column the module has no label for: never its key.
    return label === field && /^[a-z0-9_]+$/.test(field) ? t("records.timeline.otherField") : label;
  };
  const show = (field: string, value: unknown, label: string | null | undefined): string => {
    if (label) return label;
    const custom = customField(field);
    // A link's record is named by the server's label when it has one; without it, never by its id.
    if (custom && custom.type !== "link") return formatCustomValue(custom, value, { language: i18n.resolvedLanguage, t }) ?? t("records.timeline.emptyValue");
    const formatted = formatValue?.(field, value);
    if (formatted) return formatted;
    if (looksLikeId(value)) return isPersonField(field) ? t("activity.deletedUser") : t("activity.deletedRecord");
    if (typeof value === "boolean") return t(value ? "common.yes" : "common.no");
    return plain(value) ?? t("records.timeline.emptyValue");
  };
  const describe = (entry: TimelineEntry) => {
    switch (entry.kind) {
      case "note":
        return <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{entry.body}</Text>;
      case "change":
        return (
          <Text size="sm" style={{ overflowWrap: "anywhere" }}>
            {t("records.timeline.changed", {
              actor: actorOf(entry),
              field: labelOf(entry.field),
              old: show(entry.field, entry.old, entry.old_label),
              new: show(entry.field, entry.new, entry.new_label),
            })}
          </Text>
        );
      case "event":
        return <Text size="sm">{activitySentence(entry.action, actorOf(entry), (key, options) => t(key, options ?? {}))}</Text>;
      case "mail":
        return (
          <Stack gap={2}>
            <Text size="sm" c={entry.status === "failed" ? "red" : undefined} style={{ overflowWrap: "anywhere" }}>
              {t(`records.timeline.mail.${entry.status}`, { subject: entry.subject, to: entry.to.join(", ") })}
            </Text>
            {entry.status === "failed" && (
              <Text size="sm" c="red">
                {t(mailErrorCodeKey(entry.error_code))}
              </Text>
            )}
            {entry.cc.length > 0 && <Text size="xs" c="dimmed">{t("records.timeline.mail.cc", { cc: entry.cc.join(", ") })}</Text>}
            {entry.document_title && <Text size="xs" c="dimmed">{t("records.timeline.mail.attachment", { title: entry.document_title })}</Text>}
            <Text size="xs" c="dimmed">{t("records.timeline.mail.by", { actor: actorOf(entry) })}</Text>
            {entry.body && (
              <Text size="sm" c="dimmed" lineClamp={4} style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                {entry.body}
              </Text>
            )}
          </Stack>
        );
    }
  };

  return (
    <Stack gap="md">
      {canAddNote && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (body.trim() === "") return;
            addNote.mutate(body, {
              onSuccess: () => {
                setBody("");
                notifySuccess(t("records.timeline.noteAdded"));
              },
              onError: (error) => notifyFailure(t("records.timeline.noteFailed"), t(recordFailureKey(error))),
            });
          }}
        >
          <Stack gap="xs">
            <Textarea
              label={t("records.timeline.noteLabel")}
              placeholder={t("records.timeline.notePlaceholder")}
              autosize
              minRows={2}
              maxLength={20000}
              value={body}
              onChange={(event) => setBody(event.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={addNote.isPending} disabled={body.trim() === ""}>
                {t("records.timeline.addNote")}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {timeline.isPending && <LoadingScreen compact />}
      {timeline.isError && <LoadError title={t("records.timeline.loadError")} onRetry={() => void timeline.refetch()} />}
      {timeline.isSuccess && timeline.data.length === 0 && <Text c="dimmed">{t("records.timeline.empty")}</Text>}
      {timeline.isSuccess && timeline.data.length > 0 && (
        <Paper withBorder p="md">
          <MantineTimeline bulletSize={14} lineWidth={2}>
            {timeline.data.map((entry, index) => (
              <MantineTimeline.Item
                key={`${entry.kind}-${entry.at}-${index}`}
                title={
                  <Group gap="xs">
                    <Badge size="xs" variant="dot" color={{ note: "blue", change: "grape", event: "gray", mail: entry.kind === "mail" && entry.status === "failed" ? "red" : "teal" }[entry.kind]}>
                      {t(`records.timeline.kinds.${entry.kind}`)}
                    </Badge>
                    <Text size="xs" c="dimmed">
                      {entry.kind === "note" && `${actorOf(entry)} · `}
                      {formatDateTime(entry.at, i18n.resolvedLanguage)}
                    </Text>
                  </Group>
                }
              >
                {describe(entry)}
              </MantineTimeline.Item>
            ))}
          </MantineTimeline>
        </Paper>
      )}
    </Stack>
  );
}
