/**
 * The SMTP password's seal (DESIGN.md D12): AES-256-GCM with the key in MAIL_SETTINGS_KEY
 * (32 bytes, base64), which only this function holds: the database keeps the sealed text,
 * so no RPC answer, backup or log of the database carries the password in clear. Hosted:
 * a function secret (`supabase secrets set MAIL_SETTINGS_KEY=…`); locally the stack derives
 * it from the installation's JWT secret (scripts/stack/server.ts). Sealed text: "v1:" and
 * base64 of the 12-byte nonce followed by the ciphertext and its tag.
 */
const encoder = new TextEncoder();

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unbase64 = (text: string) => Uint8Array.from(atob(text), (character) => character.charCodeAt(0));

/** The key from MAIL_SETTINGS_KEY, or null when it is not set (mail settings then cannot keep a password). */
export async function sealingKey(encoded: string | undefined): Promise<CryptoKey | null> {
  if (!encoded) return null;
  const raw = unbase64(encoded);
  if (raw.length !== 32) throw new Error("MAIL_SETTINGS_KEY must be 32 bytes in base64");
  return await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

export async function seal(key: CryptoKey, secret: string): Promise<string> {
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce }, key, encoder.encode(secret)));
  const joined = new Uint8Array(nonce.length + sealed.length);
  joined.set(nonce);
  joined.set(sealed, nonce.length);
  return `v1:${base64(joined)}`;
}

/** The secret, or null when the text was not sealed with this key (another installation's, or altered). */
export async function unseal(key: CryptoKey, text: string): Promise<string | null> {
  if (!text.startsWith("v1:")) return null;
  try {
    const joined = unbase64(text.slice(3));
    const opened = await crypto.subtle.decrypt({ name: "AES-GCM", iv: joined.slice(0, 12) }, key, joined.slice(12));
    return new TextDecoder().decode(opened);
  } catch {
    return null;
  }
}
