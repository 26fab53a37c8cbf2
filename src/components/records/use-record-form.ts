/**
 * The one record form of every sales module (create and edit): react-hook-form with the
 * module's zod resolver and its custom fields (use-custom-fields-form.ts, under `custom`),
 * one save through the module's façade RPCs (useSaveRecord), the database's field errors on
 * their inputs, the optimistic version check (a stale record offers its latest version), the
 * notices and a guard against closing with unsaved changes. A module supplies its values and
 * inputs only (RecordFormModal renders the frame around them; a form on a page, the quote
 * editor, renders its own and shows UnsavedChangesModal). A module whose save is not the
 * façade's create_/update_<entity> (save_quote with its lines) gives its own save.
 */
import { useState, type BaseSyntheticEvent } from "react";
import { useForm, type DefaultValues, type FieldValues, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import type { z } from "zod";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { changedCustomValues, customFormOf, type CustomFormValues } from "./custom-fields/custom-field-form.ts";
import { useCustomFieldsForm } from "./custom-fields/use-custom-fields-form.ts";
import { useSaveRecord, type SavedVersion } from "./record-api.ts";
import { closeAction, recordFailureKey, settleRefusal, staleLatest } from "./record-form.ts";

/** The modules whose create and edit go through the record form (their `modules.<module>.form` texts). */
export type FormModule = "customers" | "contacts" | "deals" | "tasks" | "contracts" | "quotes";

/** What a module gives its record form. */
export interface RecordFormSpec<Record_ extends SavedVersion, Form extends FieldValues> {
  module: FormModule;
  /** The entity of its façade RPCs: create_<entity>, update_<entity>. */
  entity: string;
  /** Its own save instead of create_/update_<entity> (a quote's save_quote with its lines); base is the record edited. */
  save?(values: object, base: Record_ | undefined): Promise<Record_>;
  /** How the saved record (and a stale refusal's latest version) is read. */
  schema: z.ZodType<Record_>;
  /** The form paths of its standard fields, where the database's field errors land. */
  fields: readonly string[];
  /** Its zod resolver (the custom fields' rules are added to it). */
  resolver: Resolver<Form>;
  /** The form's values for a record, or a new one's (custom fields apart). */
  formOf(record: Record_ | undefined): Form;
  /** The p_values of the standard fields (custom fields apart); base is the record edited. */
  valuesOf(form: Form, base: Record_ | undefined): object;
  /** An edit sends only what changed (and saves nothing when nothing did). */
  changesOnly?: boolean;
  /** Unsaved changes the module keeps outside the form (a quote's lines): closing asks first too. */
  dirty?: boolean;
  /** A field error code in the module's words (default: the catalogue's records.form.fieldErrors). */
  fieldErrorKey?(code: string): string;
  /** The title of a refusal's notification (default: records.form.failed). */
  failedTitle?: string;
  /** The catalogue key of a refusal's message in the module's words (default: recordFailureKey). */
  failureKey?(error: unknown): string;
  /** The parameters of its created and saved notices (e.g. the record's name). */
  notice(record: Record_): Record<string, string>;
  /** The record edited; absent for a new one. */
  record?: Record_;
  /** Closes the form; saved is the record an edit just saved (absent when closed without saving). */
  onClose(saved?: Record_): void;
  /** Reads the latest version after a stale refusal itself (a quote with its lines); by default the refusal's record is taken. */
  readLatest?(): void;
  /** Before a new record is created (a duplicates check): calls create when it may go ahead. */
  beforeCreate?(values: object, create: (values: object) => void): Promise<void>;
  /** Once saved, before the notice (e.g. the deal's contacts, saved on their own). */
  afterSave?(saved: Record_, form: Form & CustomFormValues, created: boolean): Promise<void>;
  /** What follows a new record's notice; by default the form closes and the record's page opens. */
  onCreated?(created: Record_): void;
  /** After a refusal (e.g. leaves the duplicates warning for the form, where the errors show). */
  onRefused?(error: unknown): void;
}

/** The record form's state and actions, for the module's inputs and RecordFormModal. */
export function useRecordForm<Record_ extends SavedVersion, Form extends FieldValues>(spec: RecordFormSpec<Record_, Form>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { module, schema, formOf } = spec;
  const save = useSaveRecord(module, spec.entity, schema, spec.save);
  const [base, setBase] = useState<Record_ | undefined>(spec.record);
  const [stale, setStale] = useState<unknown>(null);
  const [asking, setAsking] = useState(false);
  const custom = useCustomFieldsForm(module);
  const valuesFor = (record: Record_ | undefined) =>
    ({ ...formOf(record), custom: customFormOf(record, custom.fields) }) as Form & CustomFormValues;
  // Given as values (not defaults): what loads after the form opened (the stages, the default
  // currency) fills the fields not yet touched.
  const form = useForm<Form & CustomFormValues>({
    resolver: custom.resolver(spec.resolver as unknown as Resolver<Form & CustomFormValues>),
    values: valuesFor(base),
    resetOptions: { keepDirtyValues: true },
  });
  const text = (name: "createTitle" | "editTitle" | "create" | "save" | "created" | "saved", params: Record<string, string> = {}): string =>
    // Every FormModule has these texts (modules.<module>.form); the typed catalogue cannot say so for a module picked at run time.
    (t as unknown as (key: string, options: object) => string)(`modules.${module}.form.${name}`, params);

  /** Closes without asking (after a save, or when the changes are to go). */
  const close = (record = base, saved?: Record_) => {
    form.reset(valuesFor(record) as DefaultValues<Form & CustomFormValues>);
    setStale(null);
    setAsking(false);
    spec.onClose(saved);
  };
  /** Closes, asking first when the form holds unsaved changes. */
  const requestClose = () => {
    if (closeAction(form.formState.isDirty || spec.dirty === true, save.isPending) === "ask") setAsking(true);
    else close();
  };
  const refused = (error: unknown) => {
    spec.onRefused?.(error);
    const outcome = settleRefusal(error, form.setError, [...spec.fields, ...custom.paths], spec.fieldErrorKey);
    if (outcome === "stale") setStale(error);
    else if (outcome === "notify")
      notifyFailure(
        spec.failedTitle ?? t("records.form.failed"),
        // A module's key is its catalogue's; the typed catalogue cannot say so for a key picked at run time.
        spec.failureKey ? (t as unknown as (key: string) => string)(spec.failureKey(error)) : t(recordFailureKey(error)),
      );
  };
  /** Creates the record; `then` replaces what follows its notice. */
  const create = (values: object, then?: (created: Record_) => void) =>
    save.mutate(
      { values },
      {
        onSuccess: async (created) => {
          await spec.afterSave?.(created, form.getValues(), true);
          notifySuccess(text("created", spec.notice(created)));
          if (then) then(created);
          else if (spec.onCreated) spec.onCreated(created);
          else {
            close();
            void navigate(`/${module}/${created.id}`);
          }
        },
        onError: refused,
      },
    );

  const submit = form.handleSubmit(async (values) => {
    const customValues = custom.valuesOf(values.custom);
    if (!base) {
      const payload = { ...spec.valuesOf(values, undefined), ...customValues };
      if (spec.beforeCreate) await spec.beforeCreate(payload, (checked) => create(checked));
      else create(payload);
      return;
    }
    const payload = {
      ...spec.valuesOf(values, base),
      ...(spec.changesOnly ? changedCustomValues(customValues, base) : customValues),
    };
    if (spec.changesOnly && Object.keys(payload).length === 0) {
      close();
      return;
    }
    save.mutate(
      { values: payload, base },
      {
        onSuccess: async (saved) => {
          await spec.afterSave?.(saved, values, false);
          notifySuccess(text("saved", spec.notice(saved)));
          const latest = { ...base, ...saved };
          setBase(latest);
          close(latest, saved);
        },
        onError: refused,
      },
    );
  });

  /** Takes the latest version a stale refusal carried: the form shows it, and the next save is checked against it. */
  const reload = () => {
    if (spec.readLatest) {
      setStale(null);
      spec.readLatest();
      return;
    }
    const latest = staleLatest(stale, schema);
    if (latest) {
      setBase(latest);
      form.reset(valuesFor(latest) as DefaultValues<Form & CustomFormValues>);
    }
    setStale(null);
  };

  return {
    form,
    base,
    custom,
    text,
    stale: stale !== null,
    saving: save.isPending,
    /** The save button waits: a save is under way, or the declarations whose rules the form checks are. */
    waiting: save.isPending || custom.pending,
    asking,
    submit: (event?: BaseSyntheticEvent) => void submit(event),
    create,
    close: () => close(),
    requestClose,
    keepEditing: () => setAsking(false),
    reload,
  };
}

/** What useRecordForm answers. */
export type RecordForm<Record_ extends SavedVersion, Form extends FieldValues> = ReturnType<typeof useRecordForm<Record_, Form>>;
