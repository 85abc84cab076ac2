import { isHyperFrontier, MODELS, type Model, type Tier } from "../catalog/models";
import { blendedUsdPerMtok } from "../cost/money";

/**
 * Agent policies, intensities and budget alerts (SPEC.md 3.2; docs/agents.md). Intensity is how
 * strong a model a step may use; the cost guard downshifts it under budget pressure.
 */
export const AGENT_POLICIES = ["balanced", "efficiency", "depth"] as const;
export type AgentPolicy = (typeof AGENT_POLICIES)[number];

export const INTENSITIES = ["Laser", "Halo", "Foton"] as const;
export type Intensity = (typeof INTENSITIES)[number];

/** Which catalog tiers each intensity draws from, strongest first. */
export const TIERS_OF: Readonly<Record<Intensity, readonly Tier[]>> = {
  Laser: ["frontier", "premium"],
  Halo: ["mid"],
  Foton: ["budget"],
};

/** The policy sets the starting intensity. */
export const START_INTENSITY: Readonly<Record<AgentPolicy, Intensity>> = { depth: "Laser", balanced: "Halo", efficiency: "Foton" };

/** Every step is one routed model call (`single`); docs/agents.md says why. */
export const STEP_STRATEGY = "single";

/** SPEC.md 3.2: at these shares of the cap an alert is raised and intensity drops to at most this. */
export const ALERT_LEVELS = [
  { share: 0.7, level: "WARNING", intensity: "Halo" },
  { share: 0.9, level: "CRITICAL", intensity: "Foton" },
] as const satisfies ReadonlyArray<{ share: number; level: string; intensity: Intensity }>;

export const lower = (a: Intensity, b: Intensity): Intensity => (INTENSITIES.indexOf(a) >= INTENSITIES.indexOf(b) ? a : b);

/** Hyper-frontier models (catalog/models.ts) are excluded from agents: every plan is flat-price (SPEC.md 4.4). */
export { isHyperFrontier };

/**
 * The models an intensity may use for one owner: on the plan, not hyper-frontier, passing any extra
 * eligibility; the stronger tier of an intensity first, then cheaper before dearer within a tier.
 */
export function intensityPools(allowed: readonly string[] | null, extra: (m: Model) => boolean = () => true): Record<Intensity, Model[]> {
  const pool = (i: Intensity) =>
    MODELS.filter((m) => TIERS_OF[i].includes(m.tier) && (allowed === null || allowed.includes(m.id)) && !isHyperFrontier(m) && extra(m)).toSorted(
      (a, b) => TIERS_OF[i].indexOf(a.tier) - TIERS_OF[i].indexOf(b.tier) || blendedUsdPerMtok(a) - blendedUsdPerMtok(b) || a.id.localeCompare(b.id),
    );
  return { Laser: pool("Laser"), Halo: pool("Halo"), Foton: pool("Foton") };
}
