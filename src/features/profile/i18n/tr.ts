/** Turkish texts of the profile page; src/i18n assembles them with every other folder's. */
export const tr = {
  profile: {
    title: "Profilim",
    description: "Hesap bilgileriniz, şifreniz ve son giriş denemeleriniz.",
    account: {
      title: "Hesap Bilgileri",
      email: "E-posta",
      organization: "Şirket",
      role: "Rol",
      lastLogin: "Son giriş",
      neverSignedIn: "Kayıt yok",
    },
    roles: {
      super_admin: "Süper Yönetici",
    },
    name: {
      title: "Kişisel Bilgiler",
      firstName: "Ad",
      lastName: "Soyad",
      phone: "Telefon",
      phoneHint: "Gönderdiğiniz e-postalarda imzanızda görünür.",
      submit: "Kaydet",
      saved: "Bilgileriniz güncellendi.",
      errors: {
        firstNameRequired: "Ad gerekli.",
        tooLong: "En fazla 100 karakter girilebilir.",
        invalidPhone: "Geçerli bir telefon numarası girin.",
        unknown: "Bilgileriniz kaydedilemedi. Lütfen tekrar deneyin.",
      },
    },
    password: {
      title: "Şifre değiştir",
      current: "Mevcut şifre",
      new: "Yeni şifre",
      newHint: "En az {{min}} karakter.",
      confirm: "Yeni şifre (tekrar)",
      submit: "Şifreyi değiştir",
      changed: "Şifreniz değiştirildi.",
      errors: {
        currentRequired: "Mevcut şifrenizi girin.",
        currentWrong: "Mevcut şifre hatalı.",
        mismatch: "Şifreler eşleşmiyor.",
        locked: "Çok sayıda hatalı deneme nedeniyle hesabınız {{minutes}} dakika kilitlendi.",
        network: "Sunucuya ulaşılamadı. İnternet bağlantınızı kontrol edip tekrar deneyin.",
        unknown: "Şifre değiştirilemedi. Lütfen tekrar deneyin.",
      },
    },
    attempts: {
      title: "Son Giriş Denemeleri",
      description: "Hesabınızla yapılan son 20 giriş denemesi, en yenisi üstte.",
    },
  },
};
