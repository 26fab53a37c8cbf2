import type { tr } from "./tr.ts";

/** English texts of the tasks module, typed against the Turkish ones: a key missing or extra fails to compile. */
export const en: typeof tr = {
  modules: {
    tasks: {
      title: "Tasks",
      description: "Things to do, their dates and who does them.",
      emptyTitle: "No tasks yet",
    },
  },
};
