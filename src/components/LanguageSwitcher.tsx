import { SegmentedControl } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { languages } from "@/i18n/index.ts";

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  return (
    <SegmentedControl
      size="xs"
      aria-label={t("language.label")}
      value={i18n.resolvedLanguage}
      onChange={(language) => void i18n.changeLanguage(language)}
      data={languages.map((language) => ({ value: language, label: t(`language.${language}`) }))}
    />
  );
}
