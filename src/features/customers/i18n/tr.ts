/** Turkish texts of the customers module; src/i18n assembles them with every other folder's. */
export const tr = {
  modules: {
    customers: {
      title: "Müşteriler",
      description: "Çalıştığınız şirketler ve müşteri bilgileri.",
      emptyTitle: "Henüz müşteri yok",
      detailTitle: "Müşteri Ayrıntısı",
      detailDescription: "Bir müşterinin bilgileri, kişileri ve fırsatları.",
      backToList: "Müşterilere dön",
      emptyDescription: "Müşteriler eklendiğinde burada listelenecek.",
      list: {
        label: "Müşteri listesi",
        search: "Ara",
        searchPlaceholder: "Müşteri adı",
        total: "Toplam {{count}} müşteri",
        noMatch: "Aramanıza uyan müşteri yok.",
        loadError: "Müşteriler yüklenemedi.",
        ownOnly: "Rolünüz gereği yalnızca size ait müşteriler listeleniyor.",
        columns: {
          name: "Müşteri",
          owner: "Sorumlu",
          createdAt: "Eklenme tarihi",
        },
      },
    },
  },
};
