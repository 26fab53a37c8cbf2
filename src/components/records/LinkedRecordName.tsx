import { Anchor, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { recordPath, type ModuleKey } from "@/modules/registry.ts";

/**
 * A linked record in a list cell: its name as a link to its page; "—" when nothing is
 * linked; a record the caller may not open is said to be so, never shown by its id.
 */
export function LinkedRecordName({ module, linked, prefix }: {
  module: ModuleKey;
  linked: { id: string; name: string | null } | null;
  /** Words before the name (e.g. the linked module: "Müşteri: "). */
  prefix?: string;
}) {
  const { t } = useTranslation();
  if (!linked) return <>—</>;
  if (linked.name === null) {
    return (
      <Text span size="sm" c="dimmed">
        {prefix}
        {t("records.list.linkHidden")}
      </Text>
    );
  }
  return (
    <Anchor component={Link} to={recordPath(module, linked.id) ?? "/"} size="sm">
      {prefix}
      {linked.name}
    </Anchor>
  );
}
