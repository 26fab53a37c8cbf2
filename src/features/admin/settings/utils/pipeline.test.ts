import { describe, expect, it } from "vitest";
import { operationsSettingsSchema } from "../api/schemas.ts";
import { changedSettings, newStageKey, pipelineProblem, QUOTE_PATTERN_SEQ } from "./pipeline.ts";

const stage = (key: string, outcome: string) => ({ key, name: key, probability: 50, outcome });
const valid = [stage("lead", "open"), stage("won", "won"), stage("lost", "lost")];

describe("pipelineProblem", () => {
  it("accepts a pipeline with a won and a lost stage", () => {
    expect(pipelineProblem(valid)).toBeNull();
    expect(pipelineProblem([stage("won", "won"), stage("lost", "lost")])).toBeNull();
  });

  it("asks for a won and a lost stage", () => {
    expect(pipelineProblem([stage("lead", "open"), stage("lost", "lost")])).toEqual({ code: "noWonStage" });
    expect(pipelineProblem([stage("lead", "open"), stage("won", "won")])).toEqual({ code: "noLostStage" });
  });

  it("counts the stages and finds a repeated key", () => {
    expect(pipelineProblem([stage("won", "won")])).toEqual({ code: "tooFewStages" });
    expect(pipelineProblem(Array.from({ length: 31 }, (_, i) => stage(`s${i}`, i === 0 ? "won" : "lost")))).toEqual({ code: "tooManyStages" });
    expect(pipelineProblem([...valid, stage("lead", "open")])).toEqual({ code: "duplicateStageKey", index: 3 });
  });
});

describe("operationsSettingsSchema", () => {
  const base = { deal_stages: valid, task_types: ["call"], quote_number_pattern: "TKL-{YYYY}-{SEQ:5}", quote_validity_days: 30,
                 contract_number_pattern: "SZL-{YYYY}-{SEQ:5}" };
  const messages = (values: object) =>
    operationsSettingsSchema.safeParse({ ...base, ...values }).error?.issues.map((issue) => [issue.path.join("."), issue.message]) ?? [];

  it("accepts the defaults", () => {
    expect(messages({})).toEqual([]);
  });

  it("refuses a pipeline without a won stage with the pipeline's message", () => {
    expect(messages({ deal_stages: [stage("lead", "open"), stage("lost", "lost")] })).toEqual([
      ["deal_stages", "adminSettings.errors.noWonStage"],
    ]);
  });

  it("puts a repeated key under the stage that repeats it", () => {
    expect(messages({ deal_stages: [...valid, stage("won", "open")] })).toEqual([["deal_stages.3.key", "adminSettings.errors.duplicateStageKey"]]);
  });

  it("checks the quote pattern and the validity days", () => {
    expect(messages({ quote_number_pattern: "TKL-{YYYY}" })).toEqual([["quote_number_pattern", "adminSettings.errors.quotePatternInvalid"]]);
    expect(messages({ quote_validity_days: 0 })).toEqual([["quote_validity_days", "adminSettings.errors.validityInvalid"]]);
    expect(messages({ quote_validity_days: 366 })).toEqual([["quote_validity_days", "adminSettings.errors.validityInvalid"]]);
    expect(messages({ task_types: [] })).toEqual([["task_types", "adminSettings.errors.taskTypesRequired"]]);
  });

  it("checks the contract pattern like the quote pattern", () => {
    expect(messages({ contract_number_pattern: "SZL-{YYYY}" })).toEqual([["contract_number_pattern", "adminSettings.errors.quotePatternInvalid"]]);
    expect(messages({ contract_number_pattern: "S/{YY}/{SEQ:3}" })).toEqual([]);
  });
});

describe("helpers", () => {
  it("recognises the sequence placeholder like the server", () => {
    expect(QUOTE_PATTERN_SEQ.test("Q-{SEQ}")).toBe(true);
    expect(QUOTE_PATTERN_SEQ.test("Q-{SEQ:4}")).toBe(true);
    expect(QUOTE_PATTERN_SEQ.test("Q-{SEQ:0}")).toBe(false);
    expect(QUOTE_PATTERN_SEQ.test("Q-{YYYY}")).toBe(false);
  });

  it("names a new stage with an unused key", () => {
    expect(newStageKey(valid)).toBe("stage_1");
    expect(newStageKey([...valid, stage("stage_1", "open")])).toBe("stage_2");
  });

  it("keeps only the changed fields", () => {
    expect(changedSettings({ name: "A", default_vat_rate: 20, task_types: ["x"] }, { name: "A", default_vat_rate: 18, task_types: ["x"] })).toEqual({
      default_vat_rate: 18,
    });
  });
});
