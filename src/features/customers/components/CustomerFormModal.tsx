import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Badge, Button, Group, Modal, Paper, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router-dom";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { applyServerFieldErrors, isStaleRecord, recordFailureKey } from "@/components/records/record-form.ts";
import { StaleRecordAlert } from "@/components/records/StaleRecordAlert.tsx";
import { formMessage } from "@/i18n/form-message.ts";
import { RpcError } from "@/lib/rpc.ts";
import { normalizePhone } from "@/lib/turkish-identifiers.ts";
import {
  customerFields,
  customerSchema,
  findCustomerDuplicates,
  useCreateCustomer,
  useUpdateCustomer,
  type Customer,
  type CustomerDuplicate,
  type CustomerValues,
} from "../api/customers.ts";
import { customerKinds, customerStatuses } from "../utils/customer-fields.ts";
import { MergeCustomersModal } from "./MergeCustomersModal.tsx";
import { customerFormOf, customerFormSchema, customerValuesOf, emptyCustomerForm, type CustomerFormValues } from "../utils/customer-form.ts";

interface Props {
  opened: boolean;
  onClose(): void;
  /** The customer being edited; absent for a new one. */
  customer?: Customer;
}

/**
 * Creates or edits a customer. The browser checks first (VKN/TCKN checksum by kind, phone,
 * email, website); the database's field errors land on their fields; a new customer is
 * compared with the existing ones first, and likely duplicates are shown with their reasons.
 */
export function CustomerFormModal({ opened, onClose, customer }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateCustomer();
  const update = useUpdateCustomer();
  const [base, setBase] = useState<Customer | undefined>(customer);
  const [stale, setStale] = useState(false);
  const [checking, setChecking] = useState(false);
  const [merging, setMerging] = useState<readonly [string, string] | null>(null);
  const [duplicates, setDuplicates] = useState<{ values: CustomerValues; found: CustomerDuplicate[] } | null>(null);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    setValue,
    formState: { errors },
  } = useForm<CustomerFormValues>({
    resolver: zodResolver(customerFormSchema),
    defaultValues: customer ? customerFormOf(customer) : emptyCustomerForm,
  });
  const kind = useWatch({ control, name: "kind" });

  const close = () => {
    reset(customer ? customerFormOf(customer) : emptyCustomerForm);
    setDuplicates(null);
    setStale(false);
    onClose();
  };
  const failed = (error: unknown) => {
    if (isStaleRecord(error)) {
      setStale(true);
      return;
    }
    const unplaced = applyServerFieldErrors(error, setError, customerFields);
    if (unplaced === null || unplaced.length > 0) notifyFailure(t("records.form.failed"), t(recordFailureKey(error)));
  };
  const reload = (error: unknown) => {
    const latest = error instanceof RpcError ? customerSchema.safeParse(error.details.record) : null;
    if (latest?.success) {
      setBase(latest.data);
      reset(customerFormOf(latest.data));
    }
    setStale(false);
  };
  /** Creates the customer; given a likely duplicate, then offers to merge the two. */
  const createNow = (values: CustomerValues, mergeWith?: string) =>
    create.mutate(values, {
      onSuccess: (created) => {
        notifySuccess(t("modules.customers.form.created", { name: created.name }));
        if (mergeWith) {
          // The form gives way to the merge dialog (closing it would unmount both).
          setDuplicates(null);
          setMerging([mergeWith, created.id]);
          return;
        }
        close();
        void navigate(`/customers/${created.id}`);
      },
      onError: (error) => {
        setDuplicates(null);
        failed(error);
      },
    });

  const onSubmit = handleSubmit(async (form) => {
    const values = customerValuesOf(form);
    if (base) {
      update.mutate(
        { id: base.id, values, updatedAt: base.updated_at },
        {
          onSuccess: (saved) => {
            notifySuccess(t("modules.customers.form.saved", { name: saved.name }));
            setBase(saved);
            onClose();
          },
          onError: failed,
        },
      );
      return;
    }
    setChecking(true);
    try {
      const found = await findCustomerDuplicates(values);
      if (found.length > 0) setDuplicates({ values, found });
      else createNow(values);
    } catch {
      // The check only helps: when it fails, the database still decides.
      createNow(values);
    } finally {
      setChecking(false);
    }
  });

  const error = (field: keyof CustomerFormValues) => formMessage(t, errors[field]?.message);
  const field = (name: keyof CustomerFormValues) => ({ label: t(`modules.customers.fields.${name}`), error: error(name) });
  const staleError = update.error;

  if (merging) {
    return (
      <MergeCustomersModal
        ids={merging}
        onClose={() => {
          setMerging(null);
          onClose();
          void navigate(`/customers/${merging[1]}`);
        }}
        onMerged={(survivor) => {
          setMerging(null);
          onClose();
          void navigate(`/customers/${survivor.id}`);
        }}
      />
    );
  }

  return (
    <Modal
      opened={opened}
      onClose={close}
      size="xl"
      title={base ? t("modules.customers.form.editTitle") : t("modules.customers.form.createTitle")}
      closeButtonProps={{ "aria-label": t("records.form.close") }}
    >
      {duplicates ? (
        <Stack>
          <Alert color="yellow" title={t("modules.customers.duplicates.title")}>
            {t("modules.customers.duplicates.description")}
          </Alert>
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: "none" }} aria-label={t("modules.customers.duplicates.listLabel")}>
            {duplicates.found.map((duplicate) => (
              <Paper component="li" key={duplicate.id} withBorder p="sm">
                <Group justify="space-between" gap="sm">
                  <Stack gap={4} style={{ minWidth: 0 }}>
                    <Text fw={600} style={{ overflowWrap: "anywhere" }}>
                      {duplicate.name}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {[duplicate.tax_number, duplicate.email, duplicate.phone, duplicate.city].filter(Boolean).join(" · ")}
                    </Text>
                    <Group gap={4}>
                      {duplicate.reasons.map((reason) => (
                        <Badge key={reason} size="sm" variant="dot" color="orange">
                          {t(`modules.customers.duplicates.reasons.${reason}`)}
                        </Badge>
                      ))}
                    </Group>
                  </Stack>
                  <Group gap="xs">
                    <Button component={Link} to={`/customers/${duplicate.id}`} variant="default" size="xs" onClick={close}>
                      {t("modules.customers.duplicates.open")}
                    </Button>
                    <Button variant="default" size="xs" loading={create.isPending} onClick={() => createNow(duplicates.values, duplicate.id)}>
                      {t("modules.customers.duplicates.createAndMerge")}
                    </Button>
                  </Group>
                </Group>
              </Paper>
            ))}
          </Stack>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDuplicates(null)}>
              {t("modules.customers.duplicates.back")}
            </Button>
            <Button loading={create.isPending} onClick={() => createNow(duplicates.values)}>
              {t("modules.customers.duplicates.createAnyway")}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={(event) => void onSubmit(event)} noValidate>
          <Stack>
            {stale && <StaleRecordAlert onReload={() => reload(staleError)} />}
            <TextInput {...field("name")} required autoComplete="organization" maxLength={300} {...register("name")} data-autofocus />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Controller
                control={control}
                name="kind"
                render={({ field: input }) => (
                  <Select
                    {...field("kind")}
                    required
                    allowDeselect={false}
                    data={customerKinds.map((value) => ({ value, label: t(`modules.customers.kinds.${value}`) }))}
                    value={input.value}
                    onChange={(value) => value && input.onChange(value)}
                  />
                )}
              />
              <Controller
                control={control}
                name="status"
                render={({ field: input }) => (
                  <Select
                    {...field("status")}
                    required
                    allowDeselect={false}
                    data={customerStatuses.map((value) => ({ value, label: t(`modules.customers.statuses.${value}`) }))}
                    value={input.value}
                    onChange={(value) => value && input.onChange(value)}
                  />
                )}
              />
              <TextInput
                {...field("tax_number")}
                description={kind === "person" ? t("modules.customers.hints.tckn") : t("modules.customers.hints.vkn")}
                inputMode="numeric"
                maxLength={14}
                autoComplete="off"
                inputWrapperOrder={["label", "input", "description", "error"]}
                {...register("tax_number")}
              />
              <TextInput {...field("tax_office")} maxLength={100} {...register("tax_office")} />
              <TextInput
                {...field("phone")}
                type="tel"
                autoComplete="tel"
                description={t("modules.customers.hints.phone")}
                inputWrapperOrder={["label", "input", "description", "error"]}
                {...register("phone", {
                  onBlur: (event: { target: { value: string } }) => {
                    const normalised = normalizePhone(event.target.value);
                    if (normalised) setValue("phone", normalised, { shouldValidate: true });
                  },
                })}
              />
              <TextInput {...field("email")} type="email" autoComplete="email" maxLength={254} {...register("email")} />
              <TextInput {...field("website")} autoComplete="url" maxLength={300} {...register("website")} />
              <TextInput {...field("sector")} maxLength={100} {...register("sector")} />
              <TextInput {...field("city")} maxLength={60} autoComplete="address-level1" {...register("city")} />
              <TextInput {...field("district")} maxLength={60} autoComplete="address-level2" {...register("district")} />
            </SimpleGrid>
            <Textarea {...field("address")} autosize minRows={2} maxLength={1000} autoComplete="street-address" {...register("address")} />
            <TextInput
              {...field("tags")}
              description={t("modules.customers.hints.tags")}
              inputWrapperOrder={["label", "input", "description", "error"]}
              {...register("tags")}
            />
            <Textarea {...field("description")} autosize minRows={3} maxLength={10000} {...register("description")} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t("records.form.cancel")}
              </Button>
              <Button type="submit" loading={checking || create.isPending || update.isPending}>
                {base ? t("modules.customers.form.save") : t("modules.customers.form.create")}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
