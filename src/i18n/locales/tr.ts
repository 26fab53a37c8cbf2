/**
 * Turkish catalogue: the default language and the source of the catalogue's shape.
 * Texts fixed by the spec (loading text, error screen) are quoted from it verbatim.
 */
export const tr = {
  app: {
    title: "Satış CRM",
  },
  common: {
    loading: "Yükleniyor...",
    retry: "Tekrar Dene",
  },
  language: {
    label: "Dil",
    tr: "Türkçe",
    en: "English",
  },
  errorScreen: {
    title: "Bir Hata Oluştu",
    description: "Beklenmeyen bir hata oluştu. Sayfayı yenileyebilir veya ana sayfaya dönebilirsiniz.",
    reload: "Sayfayı Yenile",
    goHome: "Ana Sayfaya Dön",
  },
  auth: {
    login: {
      title: "Giriş Yap",
      subtitle: "Hesabınıza e-posta adresiniz ve şifrenizle giriş yapın.",
      email: "E-posta",
      password: "Şifre",
      togglePasswordVisibility: "Şifreyi göster veya gizle",
      submit: "Giriş Yap",
    },
    validation: {
      emailRequired: "E-posta adresi gerekli.",
      emailInvalid: "Geçerli bir e-posta adresi girin.",
      passwordRequired: "Şifre gerekli.",
    },
    errors: {
      invalidCredentials: "E-posta veya şifre hatalı.",
      accountLocked: "Hesabınız çok sayıda hatalı denemeden dolayı kilitlendi. {{minutes}} dakika sonra tekrar deneyin.",
      adminLocked: "Hesabınız yönetici tarafından kilitlendi. Yöneticinizle iletişime geçin.",
      noOrganization: "Hesabınız için etkin bir şirket bulunamadı. Yöneticinizle iletişime geçin.",
      accountDisabled: "Hesabınız devre dışı. Yöneticinizle iletişime geçin.",
      network: "Sunucuya ulaşılamadı. İnternet bağlantınızı kontrol edip tekrar deneyin.",
      rateLimited: "Çok fazla deneme yapıldı. Lütfen biraz bekleyip tekrar deneyin.",
      unknown: "Giriş yapılamadı. Lütfen tekrar deneyin.",
    },
    signOut: {
      button: "Çıkış Yap",
      failed: "Çıkış yapılamadı. Lütfen tekrar deneyin.",
    },
  },
  home: {
    welcome: "Hoş geldiniz, {{name}}",
    organizationLabel: "Şirket",
    noOrganization: "Henüz bir şirkete bağlı değilsiniz.",
    loadError: "Kullanıcı bilgileri yüklenemedi.",
  },
};

export type Catalogue = typeof tr;
