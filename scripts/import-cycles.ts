/**
 * The import-cycle check that `vite build` (and so `npm start`) runs before it bundles: no file
 * under src/ may reach itself again through its imports. dpdm reads each file with the
 * TypeScript compiler and resolves tsconfig.json's `@/` paths; static imports and re-exports,
 * type-only imports and dynamic `import()`s all count (a bundler follows the dynamic ones, and
 * editors and tools follow the type-only ones).
 */
import { parseCircular, parseDependencyTree } from "dpdm";
import type { Plugin } from "vite";

/**
 * The import cycles among the TypeScript files under `folder` of `root` (and the files they
 * import), each as its files relative to `root` in import order; empty when there are none.
 */
export async function importCycles(root: string, folder: string): Promise<string[][]> {
  const tree = await parseDependencyTree(`${folder}/**/*.{ts,tsx}`, {
    cwd: root,
    context: root,
    transform: false,
    skipDynamicImports: false,
  });
  return parseCircular(tree, false);
}

/** Fails with the cycles, each file by file, when any file under `folder` of `root` imports itself again. */
export async function assertNoImportCycles(root: string, folder: string): Promise<void> {
  const cycles = await importCycles(root, folder);
  if (cycles.length === 0) return;
  const lines = cycles.map((files) => `  ${[...files, files[0]].join(" -> ")}`);
  throw new Error(
    `${cycles.length} import cycle(s) under ${folder}/ (static, type-only or dynamic imports; a file may not ` +
      `reach itself again). Break each: move what both sides need into a module that imports neither, or let ` +
      `the app compose them (src/app/).\n${lines.join("\n")}`,
  );
}

/** A Vite plugin that stops the build, before bundling, when a file under `folder` of `root` is in an import cycle. */
export function noImportCycles(root: string, folder: string): Plugin {
  return {
    name: "no-import-cycles",
    apply: "build",
    buildStart: () => assertNoImportCycles(root, folder),
  };
}
