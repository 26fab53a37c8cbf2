import { Button, Group, Modal, NativeSelect, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { DealStage } from "@/session/organization-settings.ts";

export interface StageInUse {
  key: string;
  count: number;
}

interface Props {
  /** The removed stages that still hold deals, with their old names. */
  removed: (StageInUse & { name: string })[];
  /** The pipeline being saved: where the deals may go. */
  stages: DealStage[];
  saving: boolean;
  onCancel(): void;
  onConfirm(moves: Record<string, string>): void;
}

/** Asks where the deals of removed stages go before the pipeline is saved (deal_stage_moves). */
export function StageMovesModal({ removed, stages, saving, onCancel, onConfirm }: Props) {
  const { t } = useTranslation();
  const firstOpen = stages.find((stage) => stage.outcome === "open")?.key ?? stages[0]?.key ?? "";
  const [moves, setMoves] = useState<Record<string, string>>(() => Object.fromEntries(removed.map((stage) => [stage.key, firstOpen])));
  return (
    <Modal opened onClose={onCancel} title={t("adminSettings.pipeline.moves.title")} closeButtonProps={{ "aria-label": t("adminSettings.pipeline.moves.cancel") }}>
      <Stack>
        <Text size="sm">{t("adminSettings.pipeline.moves.description")}</Text>
        {removed.map((stage) => (
          <NativeSelect
            key={stage.key}
            label={t("adminSettings.pipeline.moves.stage", { name: stage.name, count: stage.count })}
            data={stages.map((target) => ({ value: target.key, label: target.name }))}
            value={moves[stage.key]}
            onChange={(event) => {
              const target = event.currentTarget.value;
              setMoves((current) => ({ ...current, [stage.key]: target }));
            }}
          />
        ))}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t("adminSettings.pipeline.moves.cancel")}
          </Button>
          <Button loading={saving} onClick={() => onConfirm(moves)}>
            {t("adminSettings.pipeline.moves.submit")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
