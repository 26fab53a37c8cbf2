/** Turkish texts of the header's search (Ctrl+K); src/i18n assembles them with every other folder's. */
export const tr = {
  search: {
    button: "Ara",
    buttonLabel: "Ara: kayıtlar ve hızlı oluşturma",
    shortcut: "Kısayol: {{keys}}",
    placeholder: "Müşteri, kişi, fırsat, teklif no, sözleşme, belge, görev…",
    inputLabel: "Tüm modüllerde ara",
    hint: "Aramak için en az 2 karakter yazın. Oklarla seçip Enter ile açın.",
    searching: "Aranıyor…",
    empty: "“{{query}}” ile eşleşen kayıt yok.",
    error: "Arama yapılamadı. Biraz sonra yeniden deneyin.",
    commands: "Hızlı oluştur",
    commandLabels: {
      customers: "Yeni müşteri",
      deals: "Yeni fırsat",
      quotes: "Yeni teklif",
      tasks: "Yeni görev",
    },
    untitled: "Adsız kayıt",
  },
};
