import { useTranslation } from "react-i18next";
import { subscriptionPlans, subscriptionStatuses, type SubscriptionPlan, type SubscriptionStatus } from "../api/schemas.ts";

/** A plan's name in the interface's language; an unknown plan keeps its code. */
export function usePlanLabel() {
  const { t } = useTranslation();
  return (plan: string) =>
    (subscriptionPlans as readonly string[]).includes(plan) ? t(`organizationManager.plans.${plan as SubscriptionPlan}`) : plan;
}

/** A subscription status in the interface's language; an unknown one keeps its code. */
export function useStatusLabel() {
  const { t } = useTranslation();
  return (status: string) =>
    (subscriptionStatuses as readonly string[]).includes(status)
      ? t(`organizationManager.statuses.${status as SubscriptionStatus}`)
      : status;
}
