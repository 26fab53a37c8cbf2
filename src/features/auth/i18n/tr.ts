/** Turkish texts of sign-in, terms and the organization choice; src/i18n assembles them with every other folder's. */
export const tr = {
  auth: {
    login: {
      title: "Giriş yap",
      subtitle: "Hesabınıza e-posta adresiniz ve şifrenizle giriş yapın.",
      email: "E-posta",
      password: "Şifre",
      submit: "Giriş yap",
    },
    validation: {
      emailRequired: "E-posta adresi gerekli.",
      emailInvalid: "Geçerli bir e-posta adresi girin.",
      passwordRequired: "Şifre gerekli.",
    },
    // The spec's error catalogue (section 8), in words the person understands.
    errors: {
      invalidCredentials: "E-posta veya şifre hatalı.",
      accountLocked_one: "Hesabınız çok sayıda hatalı deneme nedeniyle kilitlendi. {{count}} dakika sonra tekrar deneyin.",
      accountLocked_other: "Hesabınız çok sayıda hatalı deneme nedeniyle kilitlendi. {{count}} dakika sonra tekrar deneyin.",
      adminLocked: "Hesabınız yönetici tarafından kilitlendi. Yöneticinizle iletişime geçin.",
      noOrganization: "{{email}} için bir şirket belirlenemedi. Yöneticinizle iletişime geçin.",
      accountDisabled: "Hesabınız devre dışı. Yöneticinizle iletişime geçin.",
      authUserCreationFailed: "Oturum hesabınız oluşturulamadı. Lütfen tekrar deneyin; sorun sürerse yöneticinizle iletişime geçin.",
      authUserCreationError: "Oturum hesabınız oluşturulurken bir hata oluştu. Lütfen tekrar deneyin.",
      passwordSyncFailed: "Şifreniz eşitlenemedi. Lütfen tekrar deneyin; sorun sürerse yöneticinizle iletişime geçin.",
      sessionCreationFailed: "Oturum başlatılamadı. Lütfen tekrar deneyin.",
      loginError: "Giriş sırasında bir hata oluştu. Lütfen tekrar deneyin.",
      timeout: "Giriş 25 saniye içinde tamamlanamadı. Lütfen bağlantınızı kontrol edin.",
      authenticationRequired: "Oturumunuz bulunamadı. Lütfen tekrar giriş yapın.",
      organizationRequired: "Bu şirket hesabınız için kullanılamıyor.",
      userNotFound: "Kullanıcı bulunamadı. Yöneticinizle iletişime geçin.",
      network: "Sunucuya ulaşılamadı. İnternet bağlantınızı kontrol edip tekrar deneyin.",
      tooManyAttempts_one: "Çok fazla giriş denemesi. Lütfen {{count}} dakika sonra tekrar deneyin.",
      tooManyAttempts_other: "Çok fazla giriş denemesi. Lütfen {{count}} dakika sonra tekrar deneyin.",
      rateLimited: "Çok fazla giriş denemesi. Lütfen biraz bekleyip tekrar deneyin.",
      unknown: "Giriş yapılamadı. Lütfen tekrar deneyin.",
    },
    sessionEnded: {
      expired: "Oturum süreniz (24 saat) doldu. Güvenliğiniz için lütfen tekrar giriş yapın.",
      unauthorized: "Oturumunuz artık geçerli değil. Lütfen tekrar giriş yapın.",
      ended: "Oturumunuz sona erdi. Lütfen tekrar giriş yapın.",
    },
    guard: {
      loadError: "Oturum bilgileri yüklenemedi.",
    },
  },
  terms: {
    title: "Kullanım Koşulları",
    intro: "Satış CRM'i kullanmadan önce lütfen aşağıdaki koşulları okuyun. Uygulamayı kullanarak bu koşulları kabul etmiş olursunuz.",
    sections: {
      use: {
        title: "Kullanım amacı",
        body: "Uygulama, şirketinizin müşteri, kişi, fırsat, teklif, sözleşme, belge ve görev kayıtlarını yönetmeniz için sunulur. Yalnızca şirketinizin işleri için kullanın.",
      },
      account: {
        title: "Hesabınız",
        body: "Hesabınız kişiseldir. Şifrenizi kimseyle paylaşmayın; hesabınızla yapılan işlemlerden siz sorumlusunuz. Beş hatalı girişte hesabınız 30 dakika kilitlenir.",
      },
      data: {
        title: "Veriler ve gizlilik",
        body: "Girdiğiniz kayıtlar şirketinize aittir ve yalnızca şirketinizin yetkili kullanıcılarına gösterilir. Kişisel veriler 6698 sayılı KVKK'ya uygun olarak işlenir.",
      },
      security: {
        title: "Güvenlik",
        body: "Giriş denemeleri kayıt altına alınır. Oturumlar en fazla 24 saat sürer; oturum açıkken şirket değiştirilemez.",
      },
      changes: {
        title: "Değişiklikler",
        body: "Koşullar değiştiğinde yeniden onayınız istenebilir. Sorularınız için şirketinizin yöneticisine başvurun.",
      },
    },
    agree: "Kullanım koşullarını okudum ve kabul ediyorum.",
    accept: "Kabul et ve devam et",
    decline: "Kabul etmiyorum, çıkış yap",
    acceptFailed: "Onayınız kaydedilemedi. Lütfen tekrar deneyin.",
    alreadyAccepted: "Kullanım koşullarını bu tarayıcıda kabul ettiniz.",
    continue: "Devam et",
    backToLogin: "Giriş sayfasına dön",
  },
  organizations: {
    select: {
      title: "Şirket Seçimi",
      description: "Hesabınız birden fazla şirkete bağlı. Bu oturumda çalışacağınız şirketi seçin; seçim oturum boyunca değiştirilemez.",
      label: "Şirket",
      submit: "Bu şirketle devam et",
      continue: "Devam et",
      currentWithRole: "Geçerli şirket · {{role}}",
      none: "Hesabınız için etkin bir şirket bulunamadı. Yöneticinizle iletişime geçin.",
      loadError: "Şirketler yüklenemedi.",
      signOut: "Çıkış yap",
    },
    switchDisabled: {
      title: "Şirket değiştirilemez",
    },
    errors: {
      switchDisabled: "Güvenlik nedeniyle şirket değiştirme devre dışıdır. Lütfen doğru şirketle giriş yapın.",
    },
  },
};
