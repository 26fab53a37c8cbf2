/** Turkish texts of the import/export page; src/i18n assembles them with every other folder's. */
export const tr = {
  modules: {
    importExport: {
      title: "İçe/Dışa Aktarma",
      description: "Kayıtları dosyadan içe aktarma ve dosyaya dışa aktarma.",
      emptyTitle: "Henüz aktarım yok",
    },
  },
};
