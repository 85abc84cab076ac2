import { describe, expect, it } from "vitest";
import { newId, randomBase62 } from "../../src/shared/ids";

describe("ids", () => {
  it("increase strictly within an isolate, also within one millisecond (the audit order's tiebreak)", () => {
    const ids = Array.from({ length: 1000 }, () => newId("ae_"));
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(ids[0]).toMatch(/^ae_[0-9a-z]{13}[0-9A-Za-z]{12}$/);
  });

  it("keep increasing when the clock steps back", () => {
    const realNow = Date.now;
    try {
      const first = newId("x_");
      Date.now = () => realNow() - 60_000;
      const second = newId("x_");
      expect(second > first).toBe(true);
      expect(second.slice(2, 11)).toBe(first.slice(2, 11));
    } finally {
      Date.now = realNow;
    }
  });

  it("random base62 has the asked length and only base62 characters", () => {
    for (const n of [1, 12, 40]) expect(randomBase62(n)).toMatch(new RegExp(`^[0-9A-Za-z]{${n}}$`));
  });
});
