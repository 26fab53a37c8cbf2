import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { localKeys, projectRoot } from "../scripts/stack/env.ts";

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)],
  );
}

test("the built app carries the publishable key and never a secret", () => {
  const bundle = filesUnder(join(projectRoot, "dist"))
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
  const { publishableKey, secretKey, jwtSecret } = localKeys();
  expect(bundle).toContain(publishableKey);
  expect(bundle).not.toContain(secretKey);
  expect(bundle).not.toContain(jwtSecret);
  expect(bundle).not.toMatch(/sb_secret_/);
});
