import { EmptyState, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

interface Props {
  title: string;
  description: string;
  emptyTitle: string;
  emptyDescription: string;
  icon: ReactNode;
  /** Links or buttons under the empty state (e.g. back to the list). */
  actions?: ReactNode;
}

/**
 * A module's page before the module holds anything: its title, what it is for, and an
 * empty state. It never shows sample records.
 */
export function ModulePlaceholder({ title, description, emptyTitle, emptyDescription, icon, actions }: Props) {
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{title}</Title>
        <Text c="dimmed">{description}</Text>
      </Stack>
      <EmptyState icon={icon} withIndicatorBackground py="xl">
        <EmptyState.Title order={2}>{emptyTitle}</EmptyState.Title>
        <EmptyState.Description>{emptyDescription}</EmptyState.Description>
        {actions && <EmptyState.Actions>{actions}</EmptyState.Actions>}
      </EmptyState>
    </Stack>
  );
}
