type UnionToIntersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never;

/** The tree made of every part's texts. */
export type Merged<Parts extends readonly object[]> = UnionToIntersection<Parts[number]>;

type Branch = Record<string, unknown>;

const isBranch = (value: unknown): value is Branch => typeof value === "object" && value !== null;

function mergeInto(target: Branch, part: object, path: string): void {
  for (const [key, value] of Object.entries(part)) {
    const existing = target[key];
    if (isBranch(value) && (existing === undefined || isBranch(existing))) {
      const branch = existing ?? (target[key] = {});
      mergeInto(branch as Branch, value, `${path}${key}.`);
    } else if (existing === undefined) {
      target[key] = value;
    } else {
      throw new Error(`The text ${path}${key} is defined twice`);
    }
  }
}

/**
 * Merges the folders' catalogues of one language into one tree. Parts may share a branch
 * (`auth`, `modules`...) but never a text: one defined twice throws, so no folder silently
 * overrides another's. The parts themselves are left as they are.
 */
export function mergeCatalogues<Parts extends readonly object[]>(...parts: Parts): Merged<Parts> {
  const merged: Branch = {};
  for (const part of parts) mergeInto(merged, part, "");
  return merged as Merged<Parts>;
}
