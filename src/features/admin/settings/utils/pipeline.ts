/** A deal stage as the pipeline editor holds it. */
export interface StageLike {
  key: string;
  name?: string;
  probability?: number;
  outcome: string;
}

export const STAGE_KEY_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;
/** A quote number pattern must hold the sequence: {SEQ} or {SEQ:n} (n 1-9). */
export const QUOTE_PATTERN_SEQ = /\{SEQ(:[1-9])?\}/;
export const MIN_STAGES = 2;
export const MAX_STAGES = 30;

export type PipelineProblemCode = "tooFewStages" | "tooManyStages" | "duplicateStageKey" | "noWonStage" | "noLostStage";

export interface PipelineProblem {
  code: PipelineProblemCode;
  /** The stage the problem is about (a repeated key), if any. */
  index?: number;
}

/**
 * The pipeline-level rule of the server (private.is_valid_pipeline): 2-30 stages, unique
 * keys, at least one won and one lost stage. Each stage's own fields are checked apart.
 */
export function pipelineProblem(stages: readonly StageLike[]): PipelineProblem | null {
  if (stages.length < MIN_STAGES) return { code: "tooFewStages" };
  if (stages.length > MAX_STAGES) return { code: "tooManyStages" };
  const seen = new Set<string>();
  for (const [index, stage] of stages.entries()) {
    const key = stage.key.trim();
    if (seen.has(key)) return { code: "duplicateStageKey", index };
    seen.add(key);
  }
  if (!stages.some((stage) => stage.outcome === "won")) return { code: "noWonStage" };
  if (!stages.some((stage) => stage.outcome === "lost")) return { code: "noLostStage" };
  return null;
}

/** A key for a new stage that no other stage uses: stage_1, stage_2, ... */
export function newStageKey(stages: readonly StageLike[]): string {
  const used = new Set(stages.map((stage) => stage.key));
  let n = 1;
  while (used.has(`stage_${n}`)) n++;
  return `stage_${n}`;
}

/** Only the fields whose value differs from the saved settings (what the server is sent). */
export function changedSettings<T extends Record<string, unknown>>(saved: Record<string, unknown>, values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([field, value]) => JSON.stringify(value) !== JSON.stringify(saved[field])),
  ) as Partial<T>;
}
