import { initialTransferKinds, transferKinds, type TransferKind } from "@/modules/registry.ts";

export type TransferOptions = Record<TransferKind, boolean>;

/** The options with exactly the given kinds chosen. */
export function transferOptionsOf(chosen: readonly string[]): TransferOptions {
  return Object.fromEntries(transferKinds.map((kind) => [kind, chosen.includes(kind)])) as TransferOptions;
}

/** Spec section 9: deals, customers and tasks on; contracts, quotes and templates off. */
export const defaultTransferOptions = transferOptionsOf(initialTransferKinds);

/** The `admin-transfer` request that moves the chosen kinds (every one named) from one user to another. */
export function transferRequest(fromUserId: string, toUserId: string, options: TransferOptions) {
  return {
    action: "transfer" as const,
    from_user_id: fromUserId,
    to_user_id: toUserId,
    kinds: transferKinds.filter((kind) => options[kind]),
  };
}

/** Whether at least one kind is chosen (a transfer of nothing is pointless). */
export function anyKindChosen(options: TransferOptions): boolean {
  return transferKinds.some((kind) => options[kind]);
}
