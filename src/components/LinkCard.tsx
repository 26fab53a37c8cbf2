import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon } from "@mantine/core";
import type { Icon } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";

interface LinkCardProps {
  to: string;
  icon: Icon;
  title: string;
  description: string;
}

/** A card that is one link: a page's icon, name and what it is for. Use inside <LinkCardGrid>. */
export function LinkCard({ to, icon: CardIcon, title, description }: LinkCardProps) {
  return (
    <li>
      <Card component={Link} to={to} withBorder padding="lg" h="100%" style={{ color: "inherit", textDecoration: "none" }}>
        <Group wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size="lg" aria-hidden>
            <CardIcon size={20} />
          </ThemeIcon>
          <Stack gap={4}>
            <Text fw={600}>{title}</Text>
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          </Stack>
        </Group>
      </Card>
    </li>
  );
}

/** A responsive list of link cards: one column on a phone, up to three on a desktop. */
export function LinkCardGrid({ label, children }: { label: string; children: ReactNode }) {
  return (
    <SimpleGrid component="ul" aria-label={label} cols={{ base: 1, sm: 2, lg: 3 }} p={0} m={0} style={{ listStyle: "none" }}>
      {children}
    </SimpleGrid>
  );
}
