import type { Capability, Tier } from "../catalog/models";
import type { Difficulty, RoutingMode, Signal } from "./types";

/**
 * The routing policy as data (docs/routing.md, "Modes"): which tier each signal needs in each mode,
 * and which model capability each signal prefers. The router reads these tables; changing a
 * routing decision is changing a row here.
 */

export type AutoMode = Exclude<RoutingMode, "direct">;
export const DEFAULT_MODE: AutoMode = "balanced";
export const TIERS: readonly Tier[] = ["budget", "mid", "premium", "frontier"];

/**
 * The tier a prompt's difficulty asks for in each mode (docs/routing.md, "Modes"). `quality` lifts
 * standard and strong prompts a tier above `balanced`, and light ones with a task to mid, but leaves
 * greetings and quick facts (`simple`) on budget; `agility` is cheapest-that-fits, except that a
 * strong prompt never goes below premium.
 */
export const TIER_FOR: Readonly<Record<AutoMode, Readonly<Record<Difficulty | "simple", Tier>>>> = {
  quality: { simple: "budget", light: "mid", standard: "premium", strong: "frontier" },
  balanced: { simple: "budget", light: "budget", standard: "mid", strong: "premium" },
  agility: { simple: "budget", light: "budget", standard: "budget", strong: "premium" },
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
