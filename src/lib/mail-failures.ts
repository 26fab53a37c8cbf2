/**
 * The refusals any sending meets on its way to the organization's SMTP server (the mail edge
 * function's and the database's codes): a record's e-mail and the admin's test e-mail both
 * give each its message (their own texts, Turkish and English).
 */
export const smtpFailureCodes = [
  "smtp_auth_failed",
  "smtp_unreachable",
  "smtp_tls_failed",
  "recipient_refused",
  "smtp_failed",
  "mail_not_configured",
  "mail_rate_limited",
  "mail_key_missing",
  "smtp_password_unreadable",
] as const;
