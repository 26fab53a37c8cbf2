import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { RpcError } from "@/lib/rpc.ts";
import type { DetailModuleKey } from "@/modules/registry.ts";
import { ModuleDenied } from "@/modules/ModuleDenied.tsx";
import { RecordNotFound } from "./RecordNotFound.tsx";

interface Props {
  query: { isPending: boolean; error: unknown; refetch(): unknown };
  module: DetailModuleKey;
}

/**
 * What a detail page shows while its record is not there: loading, the module refused,
 * not found (also a record of another organization, or another owner's under scope own),
 * or a load error with retry.
 */
export function RecordUnavailable({ query, module }: Props) {
  const { t } = useTranslation();
  if (query.isPending) return <LoadingScreen />;
  const code = query.error instanceof RpcError ? query.error.code : undefined;
  if (code === "permission_denied") return <ModuleDenied module={module} />;
  if (code === "not_found" || code === "invalid_input") return <RecordNotFound module={module} />;
  return <LoadError title={t("records.detail.loadError")} onRetry={() => void query.refetch()} />;
}
