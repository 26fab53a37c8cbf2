import { Group, Pagination } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** A list's page buttons, named for screen readers; nothing when everything fits one page. */
export function ListPagination({ pages, page, onChange }: { pages: number; page: number; onChange(page: number): void }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <Group justify="center">
      <Pagination
        total={pages}
        value={page}
        onChange={onChange}
        getControlProps={(control) => ({ "aria-label": t(`common.list.paginationControls.${control}`) })}
        getItemProps={(item) => ({ "aria-label": t("common.list.pageNumber", { page: item }) })}
        aria-label={t("common.list.pagination")}
      />
    </Group>
  );
}
