import { describe, expect, it } from "vitest";
import { base64Of, logoFileProblem, MAX_LOGO_BYTES } from "./logo-file.ts";

describe("logoFileProblem", () => {
  it("takes PNG, JPEG and WebP up to 256 KB", () => {
    for (const type of ["image/png", "image/jpeg", "image/webp"]) {
      expect(logoFileProblem({ type, size: MAX_LOGO_BYTES })).toBeNull();
    }
  });

  it("refuses SVG and other types, and anything larger", () => {
    expect(logoFileProblem({ type: "image/svg+xml", size: 100 })).toBe("invalid_logo_type");
    expect(logoFileProblem({ type: "application/pdf", size: 100 })).toBe("invalid_logo_type");
    expect(logoFileProblem({ type: "image/png", size: MAX_LOGO_BYTES + 1 })).toBe("logo_too_large");
  });
});

describe("base64Of", () => {
  it("encodes every byte, beyond one slice too", async () => {
    const bytes = new Uint8Array(70_000).map((_, index) => index % 256);
    const encoded = await base64Of(new Blob([bytes]));
    expect(Buffer.from(encoded, "base64").equals(Buffer.from(bytes))).toBe(true);
  });
});
