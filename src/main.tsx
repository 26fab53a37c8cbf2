import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { i18nReady } from "@/i18n/index.ts";
import { App } from "@/app/App.tsx";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

// The first render waits for the language's catalogue; should it fail to load, the app still starts.
void i18nReady.finally(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
