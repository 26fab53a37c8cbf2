/** Turkish texts of the module registry and guard; src/i18n assembles them with every other folder's. */
export const tr = {
  modules: {
    recordNotFound: "Kayıt bulunamadı",
    recordNotFoundDescription: "Bu adreste bir kayıt yok. Listeye dönüp başka bir kayıt seçebilirsiniz.",
  },
  permissions: {
    loadError: "Yetkileriniz yüklenemedi.",
    deniedTitle: "{{module}} modülüne erişiminiz yok",
    deniedDescription: "Rolünüz bu modülü görmeye izin vermiyor. Erişim gerekiyorsa şirketinizin yöneticisine başvurun.",
  },
};
