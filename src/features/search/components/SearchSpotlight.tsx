import "@mantine/spotlight/styles.css";
import { Group, Loader, Text } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { createSpotlight, Spotlight } from "@mantine/spotlight";
import { IconPlus, IconSearch } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { canOpenModule } from "@/modules/access.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { modules, recordPath } from "@/modules/registry.ts";
import { minimumQueryLength, useRecordSearch } from "../api/search.ts";
import { commandMatches, searchCommands } from "../utils/search-commands.ts";

// A store of its own: Mantine's global spotlight store stays free, and its Ctrl+K is off
// (shortcut null) because the header's button listens for it and loads this window.
const [store, searchWindow] = createSpotlight();

interface SearchSpotlightProps {
  opened: boolean;
  onClose: () => void;
}

/**
 * The search window (Mantine Spotlight): the query is sent 200 ms after the last key; the
 * matches come grouped by module (each with its title and, where it has one, its customer),
 * then the quick-create commands the member may use. Arrows move, Enter opens, Escape closes.
 */
export function SearchSpotlight({ opened, onClose }: SearchSpotlightProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useState("");
  const [debounced] = useDebouncedValue(query, 200);
  const search = useRecordSearch(debounced);
  const permissions = useMyPermissions();

  useEffect(() => {
    if (opened) searchWindow.open();
    else searchWindow.close();
  }, [opened]);

  const trimmed = query.trim();
  const searching = trimmed.length >= minimumQueryLength;
  // Only the answer to the words typed (never an older query's); none below two characters.
  const groups = searching && search.data ? search.data.groups : [];
  const allowed = permissions.data?.permissions ?? {};
  const commands = searchCommands
    .map((command) => ({ ...command, label: t(`search.commandLabels.${command.module}`) }))
    .filter(({ module }) => canOpenModule(allowed, module) && allowed[module]?.create !== undefined)
    .filter(({ label }) => commandMatches(label, trimmed));
  const waiting = searching && (search.isFetching || debounced.trim() !== trimmed);

  return (
    <Spotlight.Root
      store={store}
      query={query}
      onQueryChange={setQuery}
      shortcut={null}
      onSpotlightClose={onClose}
      scrollable
      maxHeight="min(32rem, 70vh)"
      size="lg"
    >
      <Spotlight.Search
        placeholder={t("search.placeholder")}
        aria-label={t("search.inputLabel")}
        leftSection={<IconSearch size={18} aria-hidden />}
        rightSection={waiting ? <Loader size="xs" aria-label={t("search.searching")} /> : null}
      />
      <Spotlight.ActionsList aria-label={t("search.inputLabel")}>
        {groups.map((group) => {
          const page = modules.find(({ key }) => key === group.module);
          const Icon = page?.icon ?? IconSearch;
          const moduleTitle = t(`modules.${page?.key ?? "customers"}.title`);
          return (
            // Spotlight draws a group's label with CSS; the role and name give it to assistive technology.
            <Spotlight.ActionsGroup key={group.module} label={moduleTitle} role="group" aria-label={moduleTitle}>
              {group.items.map((item) => (
                <Spotlight.Action
                  key={item.id}
                  label={item.title ?? t("search.untitled")}
                  description={item.subtitle ?? undefined}
                  leftSection={<Icon size={20} aria-hidden />}
                  onClick={() => {
                    const path = recordPath(group.module, item.id);
                    if (path) void navigate(path);
                  }}
                />
              ))}
            </Spotlight.ActionsGroup>
          );
        })}
        {commands.length > 0 && (
          <Spotlight.ActionsGroup label={t("search.commands")} role="group" aria-label={t("search.commands")}>
            {commands.map((command) => (
              <Spotlight.Action
                key={command.module}
                label={command.label}
                leftSection={<IconPlus size={20} aria-hidden />}
                onClick={() => void navigate(command.path)}
              />
            ))}
          </Spotlight.ActionsGroup>
        )}
        {searching && search.isError && <Spotlight.Empty>{t("search.error")}</Spotlight.Empty>}
        {searching && !waiting && search.isSuccess && groups.length === 0 && commands.length === 0 && (
          <Spotlight.Empty>{t("search.empty", { query: trimmed })}</Spotlight.Empty>
        )}
      </Spotlight.ActionsList>
      {!searching && (
        <Spotlight.Footer>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t("search.hint")}
            </Text>
          </Group>
        </Spotlight.Footer>
      )}
    </Spotlight.Root>
  );
}
