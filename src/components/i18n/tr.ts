/**
 * Turkish texts of the shared components (and the app's name); src/i18n assembles them with every
 * other folder's. Texts fixed by the spec (loading text, error screen) are quoted from it verbatim.
 */
export const tr = {
  app: {
    title: "Satış CRM",
  },
  common: {
    loading: "Yükleniyor...",
    retry: "Tekrar Dene",
    list: {
      pagination: "Sayfalar",
      pageNumber: "Sayfa {{page}}",
      paginationControls: {
        first: "İlk sayfa",
        previous: "Önceki sayfa",
        next: "Sonraki sayfa",
        last: "Son sayfa",
      },
      sortBy: "{{column}} sütununa göre sırala",
    },
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
      togglePasswordVisibility: "Şifreyi göster veya gizle",
    },
  },
  profile: {
    attempts: {
      time: "Tarih",
      result: "Sonuç",
      reason: "Neden",
      source: "Kaynak",
      succeeded: "Başarılı",
      failed: "Başarısız",
      empty: "Henüz giriş denemesi yok.",
      loadError: "Giriş denemeleri yüklenemedi.",
      reasons: {
        invalid_credentials: "Hatalı şifre",
        account_locked: "Hesap kilitli",
        admin_locked: "Yönetici kilidi",
        account_disabled: "Hesap devre dışı",
        no_organization: "Şirket bulunamadı",
        throttled: "Çok fazla deneme",
        password_too_long: "Şifre çok uzun",
      },
      sources: {
        login: "Giriş ekranı",
        auth_hook: "Kimlik doğrulama servisi",
        auth: "Kimlik doğrulama servisi (doğrudan)",
        password_change: "Şifre değiştirme",
      },
    },
  },
};
