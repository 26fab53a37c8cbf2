/** Turkish texts of the shared task pieces (lists, badges, a record's tasks); src/i18n assembles them. */
export const tr = {
  taskKit: {
    statuses: {
      open: "Açık",
      in_progress: "Devam ediyor",
      done: "Tamamlandı",
      cancelled: "İptal",
    },
    priorities: {
      low: "Düşük",
      normal: "Normal",
      high: "Yüksek",
      urgent: "Acil",
    },
    types: {
      call: "Arama",
      meeting: "Toplantı",
      email: "E-posta",
      visit: "Ziyaret",
      other: "Diğer",
    },
    overdue: "Gecikmiş",
    noDueDate: "Tarih yok",
    completeTask: "“{{title}}” görevini tamamla",
    reopenTask: "“{{title}}” görevini yeniden aç",
    completed: "“{{title}}” tamamlandı.",
    reopened: "“{{title}}” yeniden açıldı.",
    completeFailed: "Görev tamamlanamadı",
    reopenFailed: "Görev yeniden açılamadı",
    stale: "Görev siz bakarken değişti. Liste yenilendi; yeniden deneyin.",
  },
};
