import { describe, expect, it } from "vitest";
import { valueCountText } from "./value-count.ts";

describe("the deletion warning's count", () => {
  it("says an exact count as it is and a capped one with a plus, grouped in the interface's language", () => {
    expect(valueCountText(12, true, "tr")).toBe("12");
    expect(valueCountText(10000, false, "tr")).toBe("10.000+");
    expect(valueCountText(10000, false, "en")).toBe("10,000+");
  });
});
