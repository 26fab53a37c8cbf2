import type { ParseKeys, TFunction } from "i18next";

/** Validation messages are catalogue keys, translated when shown (so they follow the language). */
export function formMessage(t: TFunction, key: string | undefined): string | undefined {
  return key ? t(key as ParseKeys) : undefined;
}
