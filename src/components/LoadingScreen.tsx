import { Center, Group, Loader, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** Shown while a page or the session loads (spec §2: 'Yükleniyor...'). */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <Center mih="50vh" role="status">
      <Group gap="sm">
        <Loader size="sm" aria-hidden />
        <Text>{t("common.loading")}</Text>
      </Group>
    </Center>
  );
}
