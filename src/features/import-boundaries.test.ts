import { ESLint } from "eslint";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The project's own ESLint configuration (eslint.config.js), run on snippets placed at paths
// inside the tree: the boundary rule must refuse what it is there to refuse.
const eslint = new ESLint({ cwd: fileURLToPath(new URL("../..", import.meta.url)) });

// The boundary rules: ESLint's for static imports, the config's own for `import("…")`.
const boundaryRules = new Set(["no-restricted-imports", "boundaries/dynamic-imports"]);

/** The import-boundary messages ESLint reports for `code` saved as `filePath`. */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => boundaryRules.has(message.ruleId ?? "")).map((m) => m.message);
}

/** A file that imports `specifier` statically. */
const use = (specifier: string) => `import { x } from "${specifier}";\nexport const y = x;\n`;
/** A file that imports `specifier` when called (a lazy page). */
const load = (specifier: string) => `export const page = () => import("${specifier}");\n`;

describe("import boundaries", () => {
  it.each([
    ["another feature by @/", "src/features/customers/routes/Page.tsx", "@/features/admin/api/use-access.ts"],
    ["another feature by a relative path", "src/features/customers/routes/Page.tsx", "../../admin/api/use-access.ts"],
    ["another feature from a deeper folder", "src/features/admin/users/components/Modal.tsx", "../../../profile/api/schemas.ts"],
    ["the app's wiring", "src/features/home/routes/HomePage.tsx", "@/app/router.tsx"],
    ["shared code by climbing out of the feature", "src/features/customers/api/customers.ts", "../../../lib/rpc.ts"],
    ["a feature from shared code", "src/lib/format.ts", "@/features/auth/api/sign-in.ts"],
    ["the app from shared code", "src/session/organization-scope.ts", "../app/router.tsx"],
    ["a feature's texts from shared code other than the i18n assembly", "src/lib/format.ts", "@/features/auth/i18n/tr.ts"],
    ["a feature from the module registry", "src/modules/registry.ts", "@/features/customers/api/customers.ts"],
    ["the app from src/modules", "src/modules/access.ts", "@/app/module-pages.ts"],
  ])("refuses %s", async (_, filePath, specifier) => {
    expect(await boundaryErrors(filePath, use(specifier))).toHaveLength(1);
  }, 30_000);

  it.each([
    ["a feature's page from the module registry", "src/modules/registry.ts", "@/features/customers/routes/CustomersPage.tsx"],
    ["the app from src/modules", "src/modules/access.ts", "../app/RequireModule.tsx"],
    ["another feature's page from a feature", "src/features/home/routes/HomePage.tsx", "@/features/customers/routes/CustomersPage.tsx"],
  ])("refuses %s by a dynamic import", async (_, filePath, specifier) => {
    expect(await boundaryErrors(filePath, load(specifier))).toHaveLength(1);
  }, 30_000);

  it.each([
    ["shared code", "src/features/customers/routes/Page.tsx", "@/lib/rpc.ts"],
    ["the module registry", "src/features/customers/routes/Page.tsx", "@/modules/registry.ts"],
    ["the session kernel", "src/features/customers/routes/Page.tsx", "@/session/query-keys.ts"],
    ["the feature's own files, relatively", "src/features/customers/routes/Page.tsx", "../api/customers.ts"],
    ["the feature's own files by @/", "src/features/customers/routes/Page.tsx", "@/features/customers/api/customers.ts"],
    ["another part of the same feature", "src/features/admin/users/components/Modal.tsx", "../../roles/api/roles.ts"],
    ["features, from the app", "src/app/router.tsx", "@/features/auth/routes/LoginPage.tsx"],
    ["a feature's texts, from the i18n assembly", "src/i18n/tr.ts", "@/features/auth/i18n/tr.ts"],
    ["shared code, from src/modules", "src/modules/registry.ts", "@/lib/format.ts"],
  ])("allows %s", async (_, filePath, specifier) => {
    expect(await boundaryErrors(filePath, use(specifier))).toEqual([]);
  }, 30_000);

  it.each([
    ["a feature's page, from the app", "src/app/module-pages.ts", "@/features/customers/routes/CustomersPage.tsx"],
    ["the feature's own page", "src/features/admin/sections.ts", "./routes/UsersPage.tsx"],
    ["shared code, from src/modules", "src/modules/registry.ts", "@/lib/format.ts"],
  ])("allows %s by a dynamic import", async (_, filePath, specifier) => {
    expect(await boundaryErrors(filePath, load(specifier))).toEqual([]);
  }, 30_000);
});
