/** Turkish texts of the shared rules; src/i18n assembles them with every other folder's. */
export const tr = {
  // The database's rules for a new password, shared by every form that sets one.
  passwordRules: {
    tooShort: "Şifre en az 6 karakter olmalı.",
    tooLong: "Şifre en fazla 72 bayt olabilir (ş, ğ, ü gibi harfler 2 bayt sayılır).",
    common: "Bu şifre çok yaygın; daha güçlü bir şifre seçin.",
    same: "Yeni şifre mevcut şifreden farklı olmalı.",
  },
  organizations: {
    roles: {
      admin: "Yönetici",
      manager: "Satış Müdürü",
      sales: "Satış Temsilcisi",
      user: "Kullanıcı",
      viewer: "İzleyici",
    },
  },
};
