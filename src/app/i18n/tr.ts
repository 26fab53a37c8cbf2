/** Turkish texts of the app shell; src/i18n assembles them with every other folder's. */
export const tr = {
  nav: {
    label: "Ana menü",
    home: "Ana Sayfa",
    modules: "Satış",
    administration: "Yönetim",
    adminPages: "Yönetim Sayfaları",
  },
  shell: {
    skipToContent: "İçeriğe geç",
    openNavigation: "Menüyü aç",
    closeNavigation: "Menüyü kapat",
    organizationLabel: "Şirket",
    userMenu: "Kullanıcı menüsü ({{name}})",
    profile: "Profilim",
    closeNotification: "Bildirimi kapat",
  },
  theme: {
    label: "Tema",
    light: "Açık",
    dark: "Koyu",
  },
};
