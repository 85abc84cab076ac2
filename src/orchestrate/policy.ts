import type { Tier } from "../catalog/models";
import type { AutoMode } from "../routing/tiers";

/**
 * The three policies as data (docs/orchestration.md, "Policies"): how wide, how deep and how sure
 * each one goes. Strategies read these rows; changing a policy is changing a row.
 */
export const POLICIES = ["efficiency", "balanced", "depth"] as const;
export type Policy = (typeof POLICIES)[number];

export const STRATEGIES = ["single", "cascade", "ensemble_moa", "rank_fuse", "decompose_and_route", "self_consistency", "debate"] as const;
export type Strategy = (typeof STRATEGIES)[number];

export interface PolicySettings {
  /** The routing mode every model of the run is chosen with, and the usage rows' mode. */
  mode: AutoMode;
  /** Default width of ensemble_moa, rank_fuse, self_consistency (and debaters: min(k, 3)). */
  k: number;
  /** The confidence a cascade must reach to stop escalating. */
  bar: number;
  /** The cascade's rungs, cheapest first: one model per tier. */
  ladder: readonly Tier[];
  /** Critique rounds of a debate after the opening answers. */
  rounds: number;
}

export const POLICY: Readonly<Record<Policy, PolicySettings>> = {
  efficiency: { mode: "agility", k: 2, bar: 0.6, ladder: ["budget", "mid", "premium"], rounds: 1 },
  balanced: { mode: "balanced", k: 3, bar: 0.7, ladder: ["budget", "mid", "premium", "frontier"], rounds: 1 },
  depth: { mode: "quality", k: 5, bar: 0.8, ladder: ["mid", "premium", "frontier"], rounds: 2 },
};

/** Largest width a request may ask for. */
export const MAX_K = 8;
