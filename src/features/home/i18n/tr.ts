/** Turkish texts of the home page; src/i18n assembles them with every other folder's. */
export const tr = {
  home: {
    welcome: "Hoş geldiniz, {{name}}",
    intro: "Çalışmak istediğiniz bölümü seçin.",
    modulesLabel: "Bölümler",
    noOrganization: "Henüz bir şirkete bağlı değilsiniz.",
    loadError: "Kullanıcı bilgileri yüklenemedi.",
  },
};
