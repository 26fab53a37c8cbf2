/** Turkish texts of the session kernel; src/i18n assembles them with every other folder's. */
export const tr = {
  auth: {
    signOut: {
      button: "Çıkış yap",
    },
  },
  shell: {
    noOrganization: "Şirket seçilmedi",
    contextLoadError: "Kullanıcı bilgileri yüklenemedi.",
  },
};
