/**
 * Scenario 3 of `npm run faults`, in the browser: satis@demo.test signed in in headless
 * Chromium (scripts/chromium.ts) on the customers list; the database stops; going to the
 * contacts list must show that list's load error with its retry button (LoadError, "Tekrar
 * Dene"), nothing raw; the database starts again; one click on the button brings the list,
 * in the same page (a marker set on window survives, no second navigation entry).
 */
import { chromium, type Page } from "playwright-core";
import { tr } from "../../src/i18n/tr.ts";
import { chromiumLaunchOptions } from "../chromium.ts";
import type { Cluster } from "./cluster.ts";
import { homeHeading, signIn, termsCheckbox } from "../../e2e/support.ts";

export interface BrowserReport {
  /** What the page showed while the database was gone (the alert's text). */
  shown: string;
  /** Seconds from the stop to the load error on screen, and from the click to the list. */
  errorAfter: number;
  listAfter: number;
  /** The page was never loaded again (the window's marker and its one navigation entry). */
  samePage: boolean;
  problems: string[];
}

const timeout = 60_000;

/** Rows of the list on screen. */
const listRows = (page: Page) => page.locator("table tbody tr");

export async function retryAfterOutage(url: string, cluster: Cluster, databaseAnswers: () => Promise<boolean>): Promise<BrowserReport> {
  const report: BrowserReport = { shown: "", errorAfter: 0, listAfter: 0, samePage: false, problems: [] };
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage({ baseURL: url, locale: "tr-TR" });
    await signIn(page, "satis@demo.test");
    await homeHeading(page).or(termsCheckbox(page)).first().waitFor({ timeout });
    if (await termsCheckbox(page).isVisible()) {
      await termsCheckbox(page).check();
      await page.getByRole("button", { name: "Kabul et ve devam et" }).click();
      await homeHeading(page).waitFor({ timeout });
    }
    await page.getByRole("link", { name: tr.modules.customers.title }).first().click();
    await listRows(page).first().waitFor({ timeout });
    await page.evaluate(() => Object.assign(window, { faultsMarker: "before the outage" }));

    // The database goes away; the next list the person opens cannot load.
    const stopped = performance.now();
    await cluster.stop("immediate");
    await page.getByRole("link", { name: tr.modules.contacts.title }).first().click();
    const retry = page.getByRole("button", { name: tr.common.retry });
    try {
      await retry.waitFor({ timeout });
      report.errorAfter = (performance.now() - stopped) / 1000;
      report.shown = (await page.getByRole("alert").first().innerText()).replace(/\s+/g, " ").trim();
      const expected = [tr.modules.contacts.list.loadError, tr.permissions.loadError];
      if (!expected.some((title) => report.shown.startsWith(title))) report.problems.push(`the load error says "${report.shown}"`);
    } catch {
      const body = (await page.locator("body").innerText()).replace(/\s+/g, " ").slice(0, 300);
      report.problems.push(`no load error with "${tr.common.retry}" within ${timeout / 1000} s; the page shows: ${body || "nothing"}`);
      return report;
    }

    // The database is back (and the product answers again): one click brings the list.
    await cluster.start();
    const deadline = performance.now() + timeout;
    while (!(await databaseAnswers()) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    const clicked = performance.now();
    await retry.click();
    try {
      await listRows(page).first().waitFor({ timeout });
      report.listAfter = (performance.now() - clicked) / 1000;
    } catch {
      report.problems.push(`the list did not appear within ${timeout / 1000} s of the click`);
    }
    const { marker, navigations } = await page.evaluate(() => ({
      marker: (window as unknown as { faultsMarker?: string }).faultsMarker,
      navigations: performance.getEntriesByType("navigation").length,
    }));
    report.samePage = marker === "before the outage" && navigations === 1;
    if (!report.samePage) report.problems.push("the page was loaded again");
    return report;
  } finally {
    await browser.close();
  }
}
