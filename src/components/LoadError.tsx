import { Alert, Button, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

interface Props {
  /** What could not be loaded, in the catalogue's words. */
  title: string;
  /** Why, when the screen knows (never a raw error). */
  detail?: string;
  onRetry(): void;
}

/** Something a page needs could not be loaded: says what, and offers to try again. */
export function LoadError({ title, detail, onRetry }: Props) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={title}>
      {detail && <Text size="sm">{detail}</Text>}
      <Button variant="default" size="xs" mt="sm" onClick={onRetry}>
        {t("common.retry")}
      </Button>
    </Alert>
  );
}
