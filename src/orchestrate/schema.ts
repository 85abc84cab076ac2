import { z } from "zod";
import { brainConfigSchema } from "../routing/brain-config";
import { MAX_TOKENS_CEILING } from "../routing/request-schema";
import { MAX_K, POLICIES, STRATEGIES } from "./policy";

/** SPEC.md 8: orchestrate's default per-call token budget. */
export const DEFAULT_MAX_TOKENS = 1024;
export const DEFAULT_TEMPERATURE = 0.7;

const messageSchema = z.object({
  role: z.enum(["system", "user", "assistant"]),
  content: z.string(),
});

/**
 * The POST /v2/orchestrate body (SPEC.md 4.2) with its defaults applied. `messages` may be missing
 * or empty here: that is SPEC.md's 400 `no_messages`, raised by `orchestrate()`, not a schema error.
 */
export const orchestrateRequestSchema = z.object({
  messages: z.array(messageSchema).default([]),
  policy: z.enum(POLICIES).default("balanced"),
  strategy: z.enum(STRATEGIES).optional(),
  k: z.int().min(1).max(MAX_K).optional(),
  max_tokens: z.int().min(1).max(MAX_TOKENS_CEILING).default(DEFAULT_MAX_TOKENS),
  temperature: z.number().min(0).max(2).default(DEFAULT_TEMPERATURE),
  max_cost_usd: z.number().positive().optional(),
  judge_model: z.string().optional(),
  /** SPEC.md 2.18 policy; checked by the compliance gate (src/compliance/chat-gate.ts). */
  compliance: z.record(z.string(), z.unknown()).nullish(),
  brain_config: brainConfigSchema.nullish(),
  include_trace: z.boolean().default(true),
});

export type OrchestrateRequest = z.output<typeof orchestrateRequestSchema>;
