/** Turkish texts of the contacts module; src/i18n assembles them with every other folder's. */
export const tr = {
  modules: {
    contacts: {
      title: "Kişiler",
      description: "Müşterilerinizdeki ilgili kişiler ve iletişim bilgileri.",
      emptyTitle: "Henüz kişi yok",
      detailTitle: "Kişi Ayrıntısı",
      detailDescription: "Bir kişinin iletişim bilgileri ve geçmişi.",
      backToList: "Kişilere dön",
    },
  },
};
