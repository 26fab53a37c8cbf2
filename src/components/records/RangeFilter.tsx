import { Button, Group, Input, Popover, Stack, TextInput } from "@mantine/core";
import { IconChevronDown } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { RecordRangeFilter } from "./record-config.ts";
import { rangeEnds, rangeValue } from "./record-list-state.ts";

/**
 * A from–to list filter on a number or date column, compact beside the select filters: a
 * button showing the chosen range, two inputs in a popover. Either end may stay empty (at
 * least, at most); the list sends {"from", "to"}.
 */
export function RangeFilter({ filter, value, onChange }: { filter: RecordRangeFilter; value: string; onChange(value: string): void }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [draft, setDraft] = useState(() => rangeEnds(value));
  const chosen = rangeEnds(value);
  const date = filter.range === "date";
  const summary = value === "" ? t("records.list.rangeAny") : `${chosen.from || "…"} – ${chosen.to || "…"}`;
  const apply = (next: string) => {
    onChange(next);
    setOpened(false);
  };
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-start"
      withinPortal
      trapFocus
      onOpen={() => setDraft(rangeEnds(value))}
    >
      <Popover.Target>
        <Input.Wrapper label={filter.label} w={{ base: "100%", xs: 180 }}>
          <Button
            variant="default"
            fullWidth
            justify="space-between"
            rightSection={<IconChevronDown size={14} aria-hidden />}
            aria-label={t("records.list.rangeLabel", { label: filter.label })}
            aria-description={summary}
            onClick={() => setOpened((open) => !open)}
          >
            {summary}
          </Button>
        </Input.Wrapper>
      </Popover.Target>
      <Popover.Dropdown>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            apply(rangeValue(draft.from, draft.to));
          }}
        >
          <Stack gap="xs">
            <Group gap="xs" wrap="nowrap">
              <TextInput
                type={date ? "date" : "number"}
                step="any"
                label={t(date ? "records.list.dateFrom" : "records.list.rangeFrom")}
                value={draft.from}
                onChange={(event) => setDraft({ ...draft, from: event.currentTarget.value })}
                w={150}
              />
              <TextInput
                type={date ? "date" : "number"}
                step="any"
                label={t(date ? "records.list.dateTo" : "records.list.rangeTo")}
                value={draft.to}
                onChange={(event) => setDraft({ ...draft, to: event.currentTarget.value })}
                w={150}
              />
            </Group>
            <Group justify="flex-end" gap="xs">
              <Button variant="default" size="xs" onClick={() => apply("")}>
                {t("records.list.rangeClear")}
              </Button>
              <Button type="submit" size="xs">
                {t("records.list.rangeApply")}
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
