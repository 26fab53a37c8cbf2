import type { tr } from "./tr.ts";

/** English texts of the home page, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  home: {
    welcome: "Welcome, {{name}}",
    intro: "Where things stand today, and where you want to work.",
    modulesLabel: "Sections",
    noOrganization: "You are not linked to a company yet.",
    loadError: "Your user details could not be loaded.",
    dashboard: {
      scope: {
        own: "Your records",
        all: "Organization",
        ownHint: "Your role counts only the records you own.",
        allHint: "Every record of the organization is counted.",
      },
      loadError: "The summary could not be loaded.",
      unconverted: "No exchange rate is set for {{currencies}}; those amounts are not in the {{currency}} totals.",
      summary: {
        label: "Summary",
        openTasks: "My open tasks",
        openTasksLink: "Go to my tasks",
        overdueTasks: "My overdue tasks",
        wonMonth: "Won this month",
        lostMonth: "Lost this month",
      },
      tasks: {
        title: "My tasks",
        counts: "{{open}} open tasks, {{overdue}} of them overdue.",
        next: "My next tasks",
        none: "You have no open tasks.",
        all: "All my tasks",
      },
      pipeline: {
        title: "Sales pipeline",
        empty: "No open deals.",
        chartLabel: "Open deal amounts by stage ({{currency}}). The numbers are in the table below the chart.",
        tableLabel: "Open deals by stage",
        stage: "Stage",
        count: "Deals",
        amount: "Amount ({{currency}})",
      },
      forecast: {
        title: "Forecast for the next 6 months",
        empty: "No deals are expected to close in the coming months.",
        loadError: "The forecast could not be loaded.",
        summary: "Weighted total {{weighted}} ({{count}} deals, {{amount}} in all).",
        chartLabel: "Weighted and total amount by month ({{currency}}). The numbers are in the table.",
        tableLabel: "Forecast by month",
        month: "Month",
        count: "Deals",
        amount: "Total amount",
        weighted: "Weighted amount",
      },
      outcomes: {
        title: "Won and lost",
        period: "Period",
        month: "This month",
        quarter: "This quarter",
        won: "Won",
        lost: "Lost",
        value: "{{count}} deals · {{amount}}",
      },
      activity: {
        title: "Latest activity on my records",
        none: "No activity on your records yet.",
        untitled: "Untitled record",
      },
    },
  },
};
