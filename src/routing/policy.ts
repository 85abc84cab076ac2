import type { Capability, Tier } from "../catalog/models";
import type { RoutingMode, Signal } from "./types";

/**
 * The routing policy as data (docs/routing.md, "Modes"): which tier each signal needs in each mode,
 * and which model capability each signal prefers. The router reads these tables; changing a
 * routing decision is changing a row here.
 */

export type AutoMode = Exclude<RoutingMode, "direct">;
export const DEFAULT_MODE: AutoMode = "balanced";
export const TIERS: readonly Tier[] = ["budget", "mid", "premium", "frontier"];

/** `general`: a prompt with no signal at all (long, but with no recognizable task). */
export const TIER_FOR: Readonly<Record<Signal | "general", Readonly<Record<AutoMode, Tier>>>> = {
  code: { quality: "frontier", balanced: "mid", agility: "budget" },
  math: { quality: "frontier", balanced: "mid", agility: "budget" },
  reasoning: { quality: "frontier", balanced: "mid", agility: "budget" },
  creative: { quality: "premium", balanced: "mid", agility: "budget" },
  extraction: { quality: "premium", balanced: "budget", agility: "budget" },
  summarization: { quality: "premium", balanced: "budget", agility: "budget" },
  translation: { quality: "premium", balanced: "budget", agility: "budget" },
  long_context: { quality: "premium", balanced: "budget", agility: "budget" },
  simple: { quality: "premium", balanced: "budget", agility: "budget" },
  general: { quality: "premium", balanced: "mid", agility: "budget" },
};

/** Capabilities a signal prefers: among models of the chosen tier, those with more of them rank first. */
export const CAPABILITY_FOR: Readonly<Partial<Record<Signal, Capability>>> = {
  code: "code",
  math: "reasoning",
  reasoning: "reasoning",
  long_context: "long_context",
};

/** Automatic fallbacks added after the chosen model (and after brain_config.fallback). */
export const AUTO_FALLBACKS = 3;
