import { describe, expect, it } from "vitest";
import { mergeCatalogues } from "./merge.ts";

describe("mergeCatalogues", () => {
  it("merges the branches parts share and leaves the parts as they were", () => {
    const shell = { auth: { signOut: { button: "Çıkış Yap" } } };
    const login = { auth: { login: { title: "Giriş Yap" } }, terms: { title: "Kullanım Koşulları" } };
    expect(mergeCatalogues(shell, login)).toEqual({
      auth: { signOut: { button: "Çıkış Yap" }, login: { title: "Giriş Yap" } },
      terms: { title: "Kullanım Koşulları" },
    });
    expect(shell).toEqual({ auth: { signOut: { button: "Çıkış Yap" } } });
  });

  it("refuses a text two parts define", () => {
    expect(() => mergeCatalogues({ common: { retry: "Tekrar Dene" } }, { common: { retry: "Yeniden" } })).toThrow(
      "The text common.retry is defined twice",
    );
  });

  it("refuses a text where another part has a branch", () => {
    expect(() => mergeCatalogues({ modules: { tasks: { title: "Görevler" } } }, { modules: { tasks: "Görevler" } })).toThrow(
      "The text modules.tasks is defined twice",
    );
    expect(() => mergeCatalogues({ modules: { tasks: "Görevler" } }, { modules: { tasks: { title: "Görevler" } } })).toThrow(
      "The text modules.tasks is defined twice",
    );
  });
});
