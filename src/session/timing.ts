/**
 * Every timing of the session and the sign-in (spec sections 4, 7 and 9), in one place so the
 * code and the fake-timer tests read the same numbers.
 */

/** How often the session monitor looks at the session (spec §9: checked every 30 seconds). */
export const SESSION_CHECK_INTERVAL_MS = 30_000;

/** The access token is refreshed once this little of its life is left (spec §9: 90 seconds). */
export const SESSION_REFRESH_MARGIN_MS = 90_000;

/** A session lasts at most this long after the password sign-in (spec §9: 24 hours). */
export const SESSION_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Start-up waits this long for the stored session, then goes on signed out (spec §4: 8 seconds). */
export const AUTH_INIT_TIMEOUT_MS = 8_000;

/** The whole sign-in is abandoned after this long (spec §7 and §9: 25 seconds). */
export const SIGN_IN_TIMEOUT_MS = 25_000;

/** After the session is cleared, the app goes to /login this much later (spec §4: about 100 ms). */
export const LOGOUT_REDIRECT_DELAY_MS = 100;
