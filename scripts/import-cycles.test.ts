/**
 * The build's import-cycle check (import-cycles.ts) on throw-away projects of two files, and on
 * the app's own src/: it refuses a cycle made by any kind of import, names its files, stops
 * `vite build`, and finds none in the app.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { build } from "vite";
import { afterEach, describe, expect, it } from "vitest";
import { assertNoImportCycles, importCycles, noImportCycles } from "./import-cycles.ts";
import { projectRoot } from "./stack/env.ts";

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

/** A throw-away project with the app's `@/` path and `files` (path under it → code). */
async function project(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "import-cycles-"));
  roots.push(root);
  const tsconfig = { compilerOptions: { allowImportingTsExtensions: true, noEmit: true, paths: { "@/*": ["./src/*"] } } };
  for (const [path, code] of Object.entries({ ...files, "tsconfig.json": JSON.stringify(tsconfig) })) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), code);
  }
  return root;
}

/** src/b.ts imports src/a.ts; `a` says how src/a.ts imports src/b.ts back. */
const pair = (a: string) => ({
  "src/a.ts": a,
  "src/b.ts": `import { a } from "./a.ts";\nexport const b = () => a;\nexport type B = string;\n`,
});

describe("the import-cycle check", () => {
  it.each([
    ["a static import", `import { b } from "./b.ts";\nexport const a = () => b;\n`],
    ["a static import by the `@/` path", `import { b } from "@/b.ts";\nexport const a = () => b;\n`],
    ["a re-export", `export { b } from "./b.ts";\nexport const a = 1;\n`],
    ["a type-only import", `import type { B } from "./b.ts";\nexport const a = (value: B) => value;\n`],
    ["a dynamic import", `export const a = () => import("./b.ts");\n`],
  ])("refuses two files that import each other, one by %s, and names them", async (_, a) => {
    const root = await project(pair(a));
    const cycles = await importCycles(root, "src");
    expect(cycles.map((files) => [...files].sort())).toEqual([["src/a.ts", "src/b.ts"]]);
    await expect(assertNoImportCycles(root, "src")).rejects.toThrow(
      /1 import cycle\(s\) under src\/[^]*\n {2}src\/(a|b)\.ts -> src\/(a|b)\.ts -> src\/\1\.ts$/,
    );
  });

  it("passes files that import one way only", async () => {
    const root = await project({ "src/a.ts": `import { b } from "@/b.ts";\nexport const a = () => b;\n`, "src/b.ts": "export const b = 1;\n" });
    await expect(assertNoImportCycles(root, "src")).resolves.toBeUndefined();
  });

  it("stops `vite build` before it bundles", async () => {
    const root = await project(pair(`export const a = () => import("./b.ts");\n`));
    const bundling = build({
      root,
      configFile: false,
      logLevel: "silent",
      plugins: [noImportCycles(root, "src")],
      build: { write: false, rolldownOptions: { input: join(root, "src/a.ts") } },
    });
    await expect(bundling).rejects.toThrow(/import cycle\(s\) under src\/[^]*src\/a\.ts/);
  });

  it("finds no cycle in the app's src/", async () => {
    expect(await importCycles(projectRoot, "src")).toEqual([]);
  }, 60_000);
});
