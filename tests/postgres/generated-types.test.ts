import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateTypes, typesPath } from "../../scripts/gen-types.ts";

describe("src/types/database.types.ts", () => {
  it("matches what `npm run gen:types` generates from the migrations", async () => {
    const committed = readFileSync(typesPath, "utf8");
    // A mismatch means the migrations changed: run `npm run gen:types` and commit.
    expect(committed).toBe(await generateTypes());
  });
});
