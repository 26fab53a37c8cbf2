import { Button, Group, Stack, Stepper } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import { moduleDeclarationsQueryOptions } from "@/components/records/custom-fields/custom-fields.ts";
import { parseSpreadsheet, type ParsedSheet } from "@/lib/spreadsheet/index.ts";
import { usableTimeZone } from "@/lib/zoned-time.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { useOrganizationSettings } from "@/session/organization-settings.ts";
import { getImport, type ImportRecord, type ImportSettings } from "../api/imports.ts";
import { importDefinition } from "../declared-import-fields.ts";
import { importKind, labelText, type ImportKind, type ImportKindDefinition } from "../kinds.ts";
import { planBatches, resumeMismatch, rowBytes } from "../utils/batches.ts";
import { importFailureKey, sheetFailureMessage } from "../utils/import-errors.ts";
import { applySavedMapping, autoMatch, defaultSettings, mappingProblems, type LabelOf, type Mapping } from "../utils/mapping.ts";
import { mappedColumns, markDuplicates, prepareRows, type ConvertContext } from "../utils/prepare-rows.ts";
import { FileStep, type LoadedFile } from "./FileStep.tsx";
import { MappingStep } from "./MappingStep.tsx";
import { PreviewStep } from "./PreviewStep.tsx";
import { ResultStep } from "./ResultStep.tsx";
import { ResumeNotice } from "./ResumeNotice.tsx";
import { RunStep } from "./RunStep.tsx";
import { useImportRun, type RunPhase } from "./useImportRun.ts";

/** Phases in which leaving the page interrupts sending (the import can be resumed, but the browser asks first). */
const busyPhases: readonly RunPhase[] = ["starting", "running", "retrying", "collecting", "stopping", "finishing"];

/** A file that cannot continue the import it was picked for; its message is already in words. */
class ResumeProblem extends Error {}

/** The file's batch plan under a mapping: the same file and mapping always give the same batches. */
function planFor(sheet: ParsedSheet, definition: ImportKindDefinition, mapping: Mapping) {
  const columns = mappedColumns(sheet.headers, mapping, definition);
  return planBatches(sheet.rows.map((cells) => rowBytes(cells, columns)));
}

interface Props {
  kinds: readonly ImportKind[];
  onShowHistory(): void;
}

/**
 * The import wizard: kind and file → mapping → mode, match key and preview → run → result.
 * An unfinished import of the user is offered to be resumed: the same file (same sha256) is
 * read again with the import's stored mapping and settings, and the run goes on from the
 * first batch the server has not applied.
 */
export function ImportWizard({ kinds, onShowHistory }: Props) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const settingsQuery = useOrganizationSettings();
  const timeZone = usableTimeZone(settingsQuery.data?.time_zone);
  const run = useImportRun();
  const [step, setStep] = useState(0);
  const [kind, setKind] = useState<ImportKind | null>(kinds.length === 1 ? kinds[0] : null);
  const [loaded, setLoaded] = useState<LoadedFile | null>(null);
  const [parsing, setParsing] = useState<string | null>(null);
  const [fileProblem, setFileProblem] = useState<{ name: string; message: string } | null>(null);
  const [mapping, setMapping] = useState<Mapping>({});
  const [autoMatched, setAutoMatched] = useState(0);
  const [settings, setSettings] = useState<ImportSettings | null>(null);
  const [resumeOf, setResumeOf] = useState<ImportRecord | null>(null);

  const queryClient = useQueryClient();
  const scope = useOrganizationScope();
  // The kind's fields come from its module's declarations, standard and custom (importDefinition).
  const declarations = useQuery({ ...moduleDeclarationsQueryOptions(scope, kind ? importKind(kind).module : "customers"), enabled: kind !== null });
  const definition = useMemo(
    () => (kind && declarations.data ? importDefinition(kind, declarations.data, language) : null),
    [kind, declarations.data, language],
  );
  /** A kind with its declared fields, read first when they are not yet (rejects when they cannot be read). */
  const definitionOf = async (target: ImportKind) =>
    importDefinition(target, await queryClient.fetchQuery(moduleDeclarationsQueryOptions(scope, importKind(target).module)), language);
  const labelOf: LabelOf = (label) => labelText(label, t);
  const convert = useMemo<ConvertContext>(() => ({ timeZone, optionLabel: (option) => labelText(option.label, t) }), [timeZone, t]);
  const problems = useMemo(() => (definition ? mappingProblems(definition, mapping) : []), [definition, mapping]);

  // The preview's rows and plan (only read there: the run keeps its own).
  const previewing = step === 2 && definition !== null && loaded !== null && settings !== null;
  const prepared = useMemo(
    () => (previewing ? prepareRows(loaded.sheet, definition, mapping, convert) : null),
    [previewing, loaded, definition, mapping, convert],
  );
  const rows = useMemo(
    () => (prepared && definition && settings ? markDuplicates(prepared, definition, settings.matchKey) : null),
    [prepared, definition, settings],
  );
  const plan = useMemo(() => (previewing ? planFor(loaded.sheet, definition, mapping) : null), [previewing, loaded, definition, mapping]);

  const busy = busyPhases.includes(run.state.phase);
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [busy]);

  const matchColumns = (sheet: ParsedSheet, target: ImportKindDefinition) => {
    const auto = autoMatch(sheet.headers, target, labelOf);
    setMapping(auto);
    setAutoMatched(Object.keys(auto).length);
  };

  /** Resuming: the file must be the import's own; then its stored mapping and settings run on. */
  const continueImport = async (record: ImportRecord, file: File, sheet: ParsedSheet) => {
    const detail = await getImport(record.id);
    const target = await definitionOf(detail.kind);
    if (detail.status !== "running") throw new ResumeProblem(t("modules.importExport.resume.notRunning"));
    if (sheet.sha256 !== detail.file_hash) throw new ResumeProblem(t("modules.importExport.resume.hashMismatch", { file: detail.file_name }));
    const resumedRows = markDuplicates(prepareRows(sheet, target, detail.mapping, convert), target, detail.match_key);
    const resumedPlan = planFor(sheet, target, detail.mapping);
    if (resumeMismatch(resumedPlan, sheet.rows.length, detail)) throw new ResumeProblem(t("modules.importExport.resume.planMismatch"));
    setLoaded({ file, sheet });
    setMapping(detail.mapping);
    setSettings({ kind: detail.kind, mode: detail.mode, matchKey: detail.match_key });
    setResumeOf(null);
    setStep(3);
    void run.resume(detail, resumedRows, resumedPlan);
  };

  const readFile = async (file: File) => {
    setFileProblem(null);
    setParsing(file.name);
    let sheet: ParsedSheet;
    try {
      sheet = await parseSpreadsheet(file);
    } catch (error) {
      setFileProblem({ name: file.name, message: sheetFailureMessage(t, error, language) });
      setParsing(null);
      return;
    }
    if (resumeOf) {
      try {
        await continueImport(resumeOf, file, sheet);
      } catch (error) {
        setFileProblem({ name: file.name, message: error instanceof ResumeProblem ? error.message : t(importFailureKey(error)) });
      } finally {
        setParsing(null);
      }
      return;
    }
    try {
      if (kind) matchColumns(sheet, await definitionOf(kind));
    } catch (error) {
      setFileProblem({ name: file.name, message: t(importFailureKey(error)) });
      return;
    } finally {
      setParsing(null);
    }
    setLoaded({ file, sheet });
  };

  const chooseKind = (next: ImportKind) => {
    setKind(next);
    if (loaded)
      definitionOf(next).then(
        (target) => matchColumns(loaded.sheet, target),
        (error: unknown) => setFileProblem({ name: loaded.file.name, message: t(importFailureKey(error)) }),
      );
  };

  const startResume = (record: ImportRecord) => {
    setResumeOf(record);
    setKind(record.kind);
    setLoaded(null);
    setFileProblem(null);
    setStep(0);
  };

  const startOver = () => {
    run.reset();
    setStep(0);
    setLoaded(null);
    setMapping({});
    setSettings(null);
    setFileProblem(null);
    setResumeOf(null);
  };

  const toPreview = () => {
    if (!definition || !kind) return;
    setSettings({ kind, ...defaultSettings(definition, mapping) });
    setStep(2);
  };

  const startRun = () => {
    if (!loaded || !settings || !rows || !plan) return;
    setStep(3);
    void run.start(
      {
        ...settings,
        fileName: loaded.file.name,
        fileSize: loaded.file.size,
        fileHash: loaded.sheet.sha256,
        totalRows: loaded.sheet.rows.length,
        mapping,
      },
      rows,
      plan,
    );
  };

  const active = run.state.phase === "finished" ? 4 : step;
  const canLeave = active < 3;

  return (
    <Stack gap="lg">
      {active === 0 && !resumeOf && run.state.phase === "idle" && <ResumeNotice onResume={startResume} />}
      <Stepper active={active} onStepClick={(index) => canLeave && index < active && setStep(index)} allowNextStepsSelect={false} size="sm">
        <Stepper.Step label={t("modules.importExport.steps.file")} description={t("modules.importExport.steps.fileDescription")}>
          <Stack gap="md">
            <FileStep
              kinds={kinds}
              kind={kind}
              onKind={chooseKind}
              resumeFileName={resumeOf?.file_name}
              loaded={loaded}
              parsing={parsing}
              problem={fileProblem}
              onFile={(file) => void readFile(file)}
              onReject={setFileProblem}
            />
            <Group justify="flex-end" gap="sm">
              {resumeOf && (
                <Button variant="default" onClick={startOver}>
                  {t("modules.importExport.cancel")}
                </Button>
              )}
              {!resumeOf && (
                <Button onClick={() => setStep(1)} disabled={!definition || !loaded || parsing !== null}>
                  {t("modules.importExport.next")}
                </Button>
              )}
            </Group>
          </Stack>
        </Stepper.Step>
        <Stepper.Step label={t("modules.importExport.steps.mapping")} description={t("modules.importExport.steps.mappingDescription")}>
          {definition && loaded && (
            <Stack gap="md">
              <MappingStep
                definition={definition}
                sheet={loaded.sheet}
                mapping={mapping}
                autoMatched={autoMatched}
                problems={problems}
                onChange={setMapping}
                onAutoMatch={() => matchColumns(loaded.sheet, definition)}
                onApplySaved={(saved, name) => {
                  const applied = applySavedMapping(loaded.sheet.headers, saved, definition);
                  setMapping(applied);
                  notifySuccess(t("modules.importExport.mapping.applied", { name, count: Object.keys(applied).length }));
                }}
              />
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={() => setStep(0)}>
                  {t("modules.importExport.back")}
                </Button>
                <Button onClick={toPreview} disabled={problems.length > 0}>
                  {t("modules.importExport.next")}
                </Button>
              </Group>
            </Stack>
          )}
        </Stepper.Step>
        <Stepper.Step label={t("modules.importExport.steps.preview")} description={t("modules.importExport.steps.previewDescription")}>
          {definition && loaded && settings && rows && plan && (
            <PreviewStep
              definition={definition}
              sheet={loaded.sheet}
              mapping={mapping}
              settings={settings}
              onSettings={setSettings}
              rows={rows}
              plan={plan}
              onBack={() => setStep(1)}
              onRun={startRun}
            />
          )}
        </Stepper.Step>
        <Stepper.Step label={t("modules.importExport.steps.run")} description={t("modules.importExport.steps.runDescription")}>
          <RunStep state={run.state} onStop={run.stop} onRetry={run.retry} onBack={() => setStep(2)} />
        </Stepper.Step>
        <Stepper.Step label={t("modules.importExport.steps.result")} description={t("modules.importExport.steps.resultDescription")}>
          {definition && loaded && (
            <ResultStep
              state={run.state}
              definition={definition}
              sheet={loaded.sheet}
              fileName={loaded.file.name}
              mapping={mapping}
              onNew={startOver}
              onHistory={onShowHistory}
            />
          )}
        </Stepper.Step>
      </Stepper>
    </Stack>
  );
}
