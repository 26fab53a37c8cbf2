/**
 * Front-end figures for `npm run bench`: the gzipped JavaScript the browser downloads for
 * the first screen (/login) and for the signed-in home, and the time from navigation to
 * a usable /login page in headless Chromium (cold cache, a new browser context each run).
 */
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "playwright-core";
import { chromiumLaunchOptions } from "./chromium.ts";

export interface FrontEndFigures {
  loginJsGzipBytes: number;
  homeJsGzipBytes: number;
  usableLoginMs: number[];
}

/** Gzipped size of every script the page loads from now on. */
function collectScripts(page: Page): () => Promise<number> {
  const pending: Promise<number>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script" && response.ok()) {
      pending.push(response.body().then((body) => gzipSync(body).length));
    }
  });
  return async () => (await Promise.all(pending)).reduce((sum, size) => sum + size, 0);
}

export async function measureFrontEnd(
  baseUrl: string,
  signIn: (page: Page) => Promise<void>,
  runs = 15,
): Promise<FrontEndFigures> {
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const usableLoginMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext();
      // Measured inside the page (navigation start → the sign-in button in the DOM), so the
      // driver's own round trips do not count.
      await context.addInitScript(() => {
        new MutationObserver((_, observer) => {
          const ready = [...document.querySelectorAll("button")].some((button) => button.textContent === "Giriş yap");
          if (ready) {
            (window as unknown as { usableAt: number }).usableAt = performance.now();
            observer.disconnect();
          }
        }).observe(document, { subtree: true, childList: true });
      });
      const page = await context.newPage();
      await page.goto(`${baseUrl}/login`, { waitUntil: "commit" });
      await page.getByRole("button", { name: "Giriş yap" }).waitFor({ state: "visible" });
      usableLoginMs.push(await page.evaluate(() => (window as unknown as { usableAt: number }).usableAt));
      await context.close();
    }

    const context = await browser.newContext();
    const page = await context.newPage();
    const loginScripts = collectScripts(page);
    await page.goto(`${baseUrl}/login`);
    await page.getByRole("button", { name: "Giriş yap" }).waitFor({ state: "visible" });
    await page.waitForLoadState("networkidle");
    const loginJsGzipBytes = await loginScripts();

    const homeScripts = collectScripts(page);
    await signIn(page);
    await page.waitForLoadState("networkidle");
    const homeJsGzipBytes = loginJsGzipBytes + (await homeScripts());
    await context.close();
    return { loginJsGzipBytes, homeJsGzipBytes, usableLoginMs };
  } finally {
    await browser.close();
  }
}
