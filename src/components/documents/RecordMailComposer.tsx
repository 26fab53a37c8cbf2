import { Alert, Button, Group, Modal, SegmentedControl, Stack, TagsInput, Text, TextInput, Textarea } from "@mantine/core";
import { IconMail, IconPaperclip } from "@tabler/icons-react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { isValidEmail } from "@/lib/turkish-identifiers.ts";
import { currentUserContextQueryOptions } from "@/session/current-user-context.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { useGeneratedPdf, type GeneratedPdfSource } from "./generated-pdf.ts";
import { fillMailText, mailFailureKey, senderValues, type RecordMailKind } from "./mail-text.ts";
import { useCustomerAddresses, useMailTemplate, useSendRecordMail } from "./record-mail.ts";

interface Props {
  /** The record's PDF (the same the documents section makes). */
  source: GeneratedPdfSource;
  /** The templates offered (a contract: its own and the renewal reminder); the first is chosen. */
  kinds: readonly RecordMailKind[];
  /** The record's customer (its contacts' addresses are offered) and contact (its address is the first recipient). */
  customerId: string | null;
  contactEmail: string | null;
  /** A quote's updated_at as read: sending marks it sent. */
  updatedAt?: string;
}

/**
 * "E-posta ile gönder" on a quote or a contract: a composer with the recipients (the record's
 * contact first; the customer's other contacts to pick, or any address typed), cc, the
 * subject and body from the organization's e-mail template of the kind in the UI language
 * with its placeholders filled as the PDF fills them (and the sender's from the signed-in
 * user), and the PDF attached by name. Sending makes the PDF, keeps it among the record's
 * documents and sends it through the mail function; a quote is then sent and locked.
 */
export function RecordMailComposer({ source, kinds, customerId, contactEmail, updatedAt }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button leftSection={<IconMail size={16} aria-hidden />} onClick={() => setOpen(true)}>
        {t("documentKit.mail.open")}
      </Button>
      {open && (
        <ComposerModal source={source} kinds={kinds} customerId={customerId} contactEmail={contactEmail} updatedAt={updatedAt} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

function ComposerModal({ source, kinds, customerId, contactEmail, updatedAt, onClose }: Props & { onClose: () => void }) {
  const { t } = useTranslation();
  const session = useSignedInSession();
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  const pdf = useGeneratedPdf(source);
  const [kind, setKind] = useState<RecordMailKind>(kinds[0] ?? "quote");
  const template = useMailTemplate(kind, pdf.language);
  const values = useQuery({
    queryKey: [...queryKeys.organization(scope, "record-mail-values"), source.module, source.recordId, pdf.language],
    queryFn: async () => {
      const [placeholders, context] = await Promise.all([pdf.values(), queryClient.fetchQuery(currentUserContextQueryOptions(session.user.id))]);
      return { placeholders, sender: senderValues(context.user) };
    },
    gcTime: 0,
  });
  const ready = template.isSuccess && values.isSuccess;
  return (
    <Modal opened onClose={onClose} title={t("documentKit.mail.title")} size="lg">
      <Stack gap="md">
        {kinds.length > 1 && (
          <SegmentedControl
            aria-label={t("documentKit.mail.template")}
            value={kind}
            onChange={(value) => setKind(value as RecordMailKind)}
            data={kinds.map((each) => ({ value: each, label: t(`documentKit.mail.kinds.${each}`) }))}
          />
        )}
        {(template.isPending || values.isPending) && <LoadingScreen compact />}
        {(template.isError || values.isError) && <Alert color="red">{t("documentKit.mail.loadError")}</Alert>}
        {ready && (
          <ComposerForm
            key={kind}
            kind={kind}
            pdf={pdf}
            source={source}
            customerId={customerId}
            updatedAt={updatedAt}
            initial={{
              to: contactEmail ? [contactEmail] : [],
              subject: fillMailText(kind, template.data.subject, values.data.placeholders, values.data.sender).replace(/\s+/g, " ").trim(),
              body: fillMailText(kind, template.data.body, values.data.placeholders, values.data.sender),
            }}
            onClose={onClose}
          />
        )}
      </Stack>
    </Modal>
  );
}

interface FormProps {
  kind: RecordMailKind;
  pdf: ReturnType<typeof useGeneratedPdf>;
  source: GeneratedPdfSource;
  customerId: string | null;
  updatedAt?: string;
  initial: { to: string[]; subject: string; body: string };
  onClose: () => void;
}

function ComposerForm({ kind, pdf, source, customerId, updatedAt, initial, onClose }: FormProps) {
  const { t } = useTranslation();
  const addresses = useCustomerAddresses(customerId);
  const send = useSendRecordMail(source.module);
  const [to, setTo] = useState(initial.to);
  const [cc, setCc] = useState<string[]>([]);
  const [subject, setSubject] = useState(initial.subject);
  const [body, setBody] = useState(initial.body);
  const [busy, setBusy] = useState(false);
  const [checked, setChecked] = useState(false);

  const badAddress = (list: string[]) => list.find((address) => !isValidEmail(address));
  const toError = to.length === 0 ? t("documentKit.mail.toRequired") : badAddress(to) && t("documentKit.mail.invalidAddress", { address: badAddress(to) });
  const ccError = badAddress(cc) && t("documentKit.mail.invalidAddress", { address: badAddress(cc) });
  const subjectError = subject.trim() === "" ? t("documentKit.mail.subjectRequired") : null;

  const submit = async () => {
    setChecked(true);
    if (toError || ccError || subjectError) return;
    setBusy(true);
    try {
      const document = await pdf.keep(await pdf.render());
      await send.mutateAsync({
        module: source.module,
        record_id: source.recordId,
        kind,
        to,
        cc,
        subject: subject.trim(),
        body,
        document_id: document.id,
        ...(updatedAt ? { updated_at: updatedAt } : {}),
      });
      notifySuccess(t("documentKit.mail.sent"));
      onClose();
    } catch (error) {
      notifyFailure(t("documentKit.mail.failed"), t(mailFailureKey(error)));
    } finally {
      setBusy(false);
    }
  };

  const options = (addresses.data ?? []).map((address) => address.value);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm">
        <TagsInput
          label={t("documentKit.mail.to")}
          placeholder={t("documentKit.mail.toPlaceholder")}
          data={[...new Set(options)]}
          value={to}
          onChange={setTo}
          splitChars={[",", ";", " "]}
          acceptValueOnBlur
          error={checked && toError}
          required
        />
        <TagsInput
          label={t("documentKit.mail.cc")}
          data={[...new Set(options)]}
          value={cc}
          onChange={setCc}
          splitChars={[",", ";", " "]}
          acceptValueOnBlur
          error={checked && ccError}
        />
        <TextInput label={t("documentKit.mail.subject")} value={subject} maxLength={300} onChange={(event) => setSubject(event.currentTarget.value)} error={checked && subjectError} required />
        <Textarea label={t("documentKit.mail.body")} value={body} autosize minRows={6} maxRows={16} maxLength={20000} onChange={(event) => setBody(event.currentTarget.value)} />
        <Group gap="xs">
          <IconPaperclip size={16} aria-hidden />
          <Text size="sm">
            {t("documentKit.mail.attachment")}: {pdf.fileName}
          </Text>
        </Group>
        {kind === "quote" && (
          <Text size="sm" c="dimmed">
            {t("documentKit.mail.quoteNote")}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {t("documentKit.mail.cancel")}
          </Button>
          <Button type="submit" loading={busy} leftSection={<IconMail size={16} aria-hidden />}>
            {t("documentKit.mail.send")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
