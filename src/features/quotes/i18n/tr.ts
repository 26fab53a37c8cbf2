/** Turkish texts of the quotes module; src/i18n assembles them with every other folder's. */
export const tr = {
  modules: {
    quotes: {
      title: "Teklifler",
      description: "Müşterilere hazırlanan fiyat teklifleri.",
      emptyTitle: "Henüz teklif yok",
    },
  },
};
