import { logoContentTypes, type LogoContentType } from "@/lib/logo-types.ts";

/** The largest logo the database takes (256 KB). */
export const MAX_LOGO_BYTES = 262_144;

/** Why a chosen file cannot be the logo, checked before it is sent (the database checks again). */
export function logoFileProblem(file: { type: string; size: number }): "invalid_logo_type" | "logo_too_large" | null {
  if (!logoContentTypes.includes(file.type as LogoContentType)) return "invalid_logo_type";
  if (file.size > MAX_LOGO_BYTES) return "logo_too_large";
  return null;
}

/** A file's bytes as base64 text (what set_organization_logo takes). */
export async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  // In slices: one call with 256 KB of arguments would overflow the stack.
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}
