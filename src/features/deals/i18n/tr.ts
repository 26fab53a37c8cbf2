/** Turkish texts of the deals module; src/i18n assembles them with every other folder's. */
export const tr = {
  modules: {
    deals: {
      title: "Fırsatlar",
      description: "Satış fırsatları ve aşamaları.",
      emptyTitle: "Henüz fırsat yok",
      detailTitle: "Fırsat Ayrıntısı",
      detailDescription: "Bir fırsatın tutarı, aşaması ve geçmişi.",
      backToList: "Fırsatlara dön",
    },
  },
};
