/** Turkish texts of the documents module; src/i18n assembles them with every other folder's. */
export const tr = {
  modules: {
    documents: {
      title: "Belgeler",
      description: "Kayıtlara bağlı dosyalar ve belgeler.",
      emptyTitle: "Henüz belge yok",
    },
  },
};
