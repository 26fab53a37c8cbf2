import { Center, Group, Loader, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

interface Props {
  /** Inside a card or a section: no page-high space around it. */
  compact?: boolean;
}

/** Shown while a page or the session loads (spec §2: 'Yükleniyor...'). */
export function LoadingScreen({ compact = false }: Props) {
  const { t } = useTranslation();
  return (
    <Center mih={compact ? undefined : "50vh"} py={compact ? "md" : undefined} role="status">
      <Group gap="sm">
        <Loader size="sm" aria-hidden />
        <Text>{t("common.loading")}</Text>
      </Group>
    </Center>
  );
}
