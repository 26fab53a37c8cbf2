import { lazy, Suspense } from "react";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";

// The chart library loads only when the forecast is opened, never with the board.
const DealForecastView = lazy(() => import("./DealForecastView.tsx").then((module) => ({ default: module.DealForecastView })));

/** The weighted forecast (lazy: it brings the chart library). */
export function DealForecast() {
  return (
    <Suspense fallback={<LoadingScreen compact />}>
      <DealForecastView />
    </Suspense>
  );
}
