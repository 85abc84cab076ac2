import { describe, expect, it } from "vitest";
import { FREE_MODEL_IDS, MODELS } from "../../src/catalog/models";
import { INTENSITIES, intensityRule, isIntensityId } from "../../src/skills/intensity";

/** The intensity ids of SPEC.md 4.9 and their tiers (docs/skills.md, "Intensity"). */

const FREE = MODELS.filter((m) => FREE_MODEL_IDS.includes(m.id));

describe("intensity ids", () => {
  it("map Laser to premium and frontier, Halo to mid, Foton to budget, highest first as in SPEC.md 3.2", () => {
    expect(INTENSITIES).toEqual({
      "laser-1": { level: "Laser", tiers: ["premium", "frontier"] },
      "halo-1": { level: "Halo", tiers: ["mid"] },
      "foton-1": { level: "Foton", tiers: ["budget"] },
    });
  });

  it("recognises exactly the three ids", () => {
    for (const id of ["laser-1", "halo-1", "foton-1"]) expect(isIntensityId(id)).toBe(true);
    for (const id of ["auto", "laser", "Laser-1", "laser-2", "gpt-5-mini", "toString", "__proto__", ""]) expect(isIntensityId(id)).toBe(false);
  });

  it("admits exactly the catalog models of the intensity's tiers, and names the intensity when it refuses one", () => {
    const { eligibility, report } = intensityRule("halo-1", MODELS);
    expect(report).toEqual({ id: "halo-1", level: "Halo", tiers: ["mid"], applied: true });
    const admitted = MODELS.filter((m) => eligibility!(m) === null).map((m) => m.id);
    expect(admitted).toEqual(MODELS.filter((m) => m.tier === "mid").map((m) => m.id));
    expect(admitted).toHaveLength(10);
    const nano = MODELS.find((m) => m.id === "gpt-5-nano")!;
    expect(eligibility!(nano)).toBe("is outside intensity halo-1 (Halo: the mid tier)");
    const opus = MODELS.find((m) => m.id === "claude-opus-4-6")!;
    expect(intensityRule("foton-1", MODELS).eligibility!(opus)).toBe("is outside intensity foton-1 (Foton: the budget tier)");
    expect(intensityRule("laser-1", MODELS).eligibility!(nano)).toBe("is outside intensity laser-1 (Laser: the premium and frontier tiers)");
  });

  it("laser-1 admits the 6 premium and 2 frontier models", () => {
    const { eligibility } = intensityRule("laser-1", MODELS);
    expect(MODELS.filter((m) => eligibility!(m) === null).map((m) => m.tier).sort()).toEqual([...Array(2).fill("frontier"), ...Array(6).fill("premium")]);
  });

  it("gives way when the plan (or a compliance policy) leaves none of its tiers (Free: three budget models), and says so", () => {
    for (const id of ["laser-1", "halo-1"] as const) {
      const { eligibility, report } = intensityRule(id, FREE);
      expect(eligibility).toBeNull();
      expect(report.applied).toBe(false);
      expect(report.note).toBe(`No model your plan (and compliance policy) allows is of ${id === "laser-1" ? "the premium and frontier tiers" : "the mid tier"}, so ${id} is not applied.`);
    }
    const foton = intensityRule("foton-1", FREE);
    expect(foton.report.applied).toBe(true);
    expect(MODELS.filter((m) => foton.eligibility!(m) === null && FREE_MODEL_IDS.includes(m.id))).toHaveLength(3);
  });
});
