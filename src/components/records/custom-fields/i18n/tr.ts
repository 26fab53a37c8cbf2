/** Turkish texts of custom fields in the record forms and pages; src/i18n assembles them with every other folder's. */
export const tr = {
  customFields: {
    form: {
      legend: "Özel alanlar",
      choose: "Seçin",
    },
    detail: {
      title: "Özel alanlar",
      edit: "Özel alanları düzenle",
      editTitle: "Özel alanları düzenle",
      save: "Kaydet",
      saved: "Özel alanlar kaydedildi.",
    },
  },
};
