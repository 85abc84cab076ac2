import type { Model, Tier } from "../catalog/models";
import type { Eligibility } from "../cost/guard";

/**
 * The intensity ids a skill invocation accepts as `model` (SPEC.md 2.20, 4.9). Intensity is the
 * ladder of SPEC.md 3.2, highest first: Laser, Halo, Foton. Each fixes the tiers routing may choose
 * from; which model of those tiers serves is still routing's choice (signals, routing_mode, plan,
 * brain_config). Four tiers on three rungs: the top rung takes both premium and frontier.
 */
export const INTENSITIES = {
  "laser-1": { level: "Laser", tiers: ["premium", "frontier"] },
  "halo-1": { level: "Halo", tiers: ["mid"] },
  "foton-1": { level: "Foton", tiers: ["budget"] },
} as const satisfies Record<string, { level: string; tiers: readonly Tier[] }>;

export type IntensityId = keyof typeof INTENSITIES;

export const isIntensityId = (model: string): model is IntensityId => Object.hasOwn(INTENSITIES, model);

/** What an invocation reports in `svc.intensity`. */
export interface IntensityReport {
  id: IntensityId;
  level: string;
  tiers: readonly Tier[];
  /** False when the key's plan (or compliance policy) allows no model of these tiers: they win (SPEC.md 8, rule 2). */
  applied: boolean;
  note?: string;
}

/** "the mid tier", "the premium and frontier tiers". */
const tierPhrase = (tiers: readonly Tier[]) => `the ${tiers.join(" and ")} tier${tiers.length > 1 ? "s" : ""}`;

/**
 * The routing predicate for an intensity, given the models the caller may use at all (`pool`: the
 * plan's models, less any a compliance policy excludes). When none of them is of the intensity's
 * tiers (a Free key asking for laser-1), the intensity gives way: the predicate is dropped and
 * routing picks the nearest tier that is left, rather than a last resort.
 */
export function intensityRule(id: IntensityId, pool: readonly Model[]): { eligibility: Eligibility | null; report: IntensityReport } {
  const { level, tiers } = INTENSITIES[id];
  const inTiers = (tier: Tier) => (tiers as readonly Tier[]).includes(tier);
  if (!pool.some((m) => inTiers(m.tier))) {
    return {
      eligibility: null,
      report: { id, level, tiers, applied: false, note: `No model your plan (and compliance policy) allows is of ${tierPhrase(tiers)}, so ${id} is not applied.` },
    };
  }
  return {
    eligibility: (m) => (inTiers(m.tier) ? null : `is outside intensity ${id} (${level}: ${tierPhrase(tiers)})`),
    report: { id, level, tiers, applied: true },
  };
}
