import { NativeSelect, Table } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { moduleActions, modules, type ModuleAction, type ModuleKey } from "@/modules/registry.ts";
import { cellScopes, type CellScope, type Matrix } from "../utils/matrix.ts";

interface Props {
  /** The table's accessible name. */
  label: string;
  matrix: Matrix;
  readOnly: boolean;
  onChange: (module: string, action: string, scope: CellScope) => void;
}

/** Rows are the registry's modules, columns its actions; each cell says none, own records or all records. */
export function PermissionMatrix({ label, matrix, readOnly, onChange }: Props) {
  const { t } = useTranslation();
  const moduleLabel = (module: ModuleKey) => t(`modules.${module}.title`);
  const actionLabel = (action: ModuleAction) => t(`adminRoles.actions.${action}`);
  const scopeOptions = cellScopes.map((scope) => ({ value: scope, label: t(`adminRoles.scopes.${scope}`) }));

  return (
    <Table.ScrollContainer minWidth={760} type="native" tabIndex={0}>
      <Table aria-label={label} striped withTableBorder verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t("adminRoles.matrix.module")}</Table.Th>
            {moduleActions.map((action) => (
              <Table.Th key={action} scope="col">
                {actionLabel(action)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {modules.map(({ key: module }) => (
            <Table.Tr key={module}>
              <Table.Th scope="row">{moduleLabel(module)}</Table.Th>
              {moduleActions.map((action) => (
                <Table.Td key={action}>
                  <NativeSelect
                    size="xs"
                    aria-label={t("adminRoles.matrix.cellLabel", { module: moduleLabel(module), action: actionLabel(action) })}
                    data={scopeOptions}
                    value={matrix[module]?.[action] ?? "none"}
                    disabled={readOnly}
                    onChange={(event) => onChange(module, action, event.currentTarget.value as CellScope)}
                  />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
