/** Turkish texts of the tasks module; src/i18n assembles them with every other folder's. */
export const tr = {
  modules: {
    tasks: {
      title: "Görevler",
      description: "Yapılacak işler, tarihleri ve sorumluları.",
      emptyTitle: "Henüz görev yok",
    },
  },
};
