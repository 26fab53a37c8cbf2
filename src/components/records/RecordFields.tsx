import { SimpleGrid, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";

/** A record page's fields as one description list: label over value, two columns from small screens on. */
export function RecordFieldGrid({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" component="dl" m={0}>
      {children}
    </SimpleGrid>
  );
}

/** One field of a record page: its label (dt) and its value (dd), long text wrapped anywhere and its line breaks kept. */
export function RecordFieldItem({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} style={{ overflowWrap: "anywhere", whiteSpace: "pre-wrap" }}>
        {children}
      </Text>
    </Stack>
  );
}
