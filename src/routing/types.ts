import type { Eligibility } from "../cost/guard";
import type { Model, Tier } from "../catalog/models";
import type { ChatMessage } from "../providers/types";

export type RoutingMode = "quality" | "balanced" | "agility" | "direct";

/** Intent signals detected in the prompt; each is reported as a boolean. */
export const SIGNALS = [
  "code", "math", "reasoning", "creative", "extraction", "summarization", "translation", "long_context", "simple",
] as const;
export type Signal = (typeof SIGNALS)[number];

/** The capability a prompt needs (docs/routing.md, "Difficulty"): it sets the tier. */
export const DIFFICULTIES = ["light", "standard", "strong"] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

/**
 * The inline routing config (SPEC.md 2.13 keys). Rule format: see docs/routing.md.
 * Normalised by `checkBrainConfig` (./brain-config.ts); text form, validation and sharing in src/brain/.
 */
export interface BrainConfig {
  model?: string;
  max_cost_per_request?: number;
  max_cost?: number;
  blocked?: string[];
  fallback?: string[];
  rules?: BrainRule[];
  compliance?: Record<string, unknown>;
}
export interface BrainRule {
  /** Match when every given condition holds. */
  when: { signal?: Signal | Signal[]; contains?: string | string[]; min_chars?: number; max_chars?: number };
  /** Choose a model (catalog id) or a mode. */
  model?: string;
  mode?: Exclude<RoutingMode, "direct">;
}

export interface RouteInput {
  messages: ChatMessage[];
  /** As given: "auto", a catalog id, or anything else. */
  model: string;
  routingMode?: Exclude<RoutingMode, "direct">;
  brainConfig?: BrainConfig;
  /** null: every model; else the plan's allowlist (Free). */
  allowedModels: readonly string[] | null;
  /** For cost caps: the completion budget of the call. */
  maxTokens: number;
  /** For cost caps: how many completions of maxTokens the call asks for (OpenAI's `n`; 1 when absent). */
  completions?: number;
  /** Prompt tokens the text estimate cannot see: the request's images (cost/image-tokens.ts). */
  imageTokens?: number;
  /** More cost-guard predicates the caller adds (compliance, capabilities the request needs). */
  eligibility?: readonly Eligibility[];
  /** Predicates never relaxed, not even by the last resort, exactly like the plan (compliance). */
  requirements?: readonly Eligibility[];
}

export interface RouteDecision {
  mode: RoutingMode;
  /** Chosen model, then fallbacks in order; never empty. */
  candidates: Model[];
  reason: string;
  tier: Tier;
  signals_detected: Record<Signal, boolean>;
  /** The classifier's probability per signal, two decimals (long_context: 1 or 0, by size). */
  signal_scores: Record<Signal, number>;
  /** The capability the prompt needs; it sets the tier in auto routing. */
  difficulty: Difficulty;
  /** Probability that the prompt needs at least a standard model, and a strong one. */
  difficulty_scores: { standard: number; strong: number };
  /** Estimated prompt tokens (about 4 characters a token). */
  estimated_prompt_tokens: number;
  /**
   * What decided, machine-readable: `request_model`, `brain_config.rules[i]` (0-based),
   * `brain_config.model`, `routing_mode`, `default_mode`, `unknown_model`, `plan_restriction`, `last_resort`.
   */
  rule: string;
}
