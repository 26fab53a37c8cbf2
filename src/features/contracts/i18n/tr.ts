/** Turkish texts of the contracts module; src/i18n assembles them with every other folder's. */
export const tr = {
  modules: {
    contracts: {
      title: "Sözleşmeler",
      description: "Müşterilerle yapılan sözleşmeler ve süreleri.",
      emptyTitle: "Henüz sözleşme yok",
    },
  },
};
