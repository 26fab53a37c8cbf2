import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { buildHash, builtFrom, stampFileName } from "./app-build-stamp.ts";

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

test("the build hash changes with a source, a configuration file or a baked-in key, and the stamp says whether dist/ is current", () => {
  root = mkdtempSync(join(tmpdir(), "build-stamp-"));
  mkdirSync(join(root, "src", "app"), { recursive: true });
  writeFileSync(join(root, "src", "app", "App.tsx"), "export const a = 1;");
  writeFileSync(join(root, "index.html"), "<html></html>");
  writeFileSync(join(root, "package-lock.json"), "{}");
  const inputs = ["src", "index.html", "package-lock.json", "missing.ts"];
  const keys = { publishableKey: "sb_publishable_a" };
  const first = buildHash(root, keys, inputs);
  expect(buildHash(root, keys, inputs)).toBe(first);

  writeFileSync(join(root, "src", "app", "App.tsx"), "export const a = 2;");
  const edited = buildHash(root, keys, inputs);
  expect(edited).not.toBe(first);
  writeFileSync(join(root, "src", "app", "New.tsx"), "");
  const added = buildHash(root, keys, inputs);
  expect(added).not.toBe(edited);
  writeFileSync(join(root, "package-lock.json"), '{"lockfileVersion":3}');
  const locked = buildHash(root, keys, inputs);
  expect(locked).not.toBe(added);
  expect(buildHash(root, { publishableKey: "sb_publishable_b" }, inputs)).not.toBe(locked);

  const dist = join(root, "dist");
  mkdirSync(dist);
  expect(builtFrom(dist, locked)).toBe(false);
  writeFileSync(join(dist, "index.html"), "");
  writeFileSync(join(dist, stampFileName), `${locked}\n`);
  expect(builtFrom(dist, locked)).toBe(true);
  expect(builtFrom(dist, first)).toBe(false);
});
