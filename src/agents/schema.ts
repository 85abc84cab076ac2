import { z } from "zod";
import { pageLimit, workspaceIdSchema } from "../shared/schemas";
import { AGENT_POLICIES } from "./policy";

/** SPEC.md 4.4 and section 8.3; bounds that keep a run's row well under D1's 1 MB (docs/agents.md). */
export const MAX_STEPS_CEILING = 1000;
export const DEFAULT_MAX_STEPS = 50;
export const MAX_GOAL_CHARS = 20_000;
export const MAX_AGENT_TOKENS = 16_384;
export const VERIFY_MAX_STEPS = 2000;

const text = (max: number) => z.string().max(max, { message: `at most ${max} characters` });

export const agentRunSchema = z
  .strictObject({
    goal: text(MAX_GOAL_CHARS).optional(),
    prompt: text(MAX_GOAL_CHARS).optional(),
    max_cost_usd: z.number().min(0).finite().optional(),
    max_cost_per_step: z.number().min(0).finite().optional(),
    max_steps: z.int().min(1).max(MAX_STEPS_CEILING, { message: `max_steps is at most ${MAX_STEPS_CEILING}` }).default(DEFAULT_MAX_STEPS),
    policy: z.enum(AGENT_POLICIES).default("balanced"),
    idempotency_key: z.string().min(1).max(200).optional(),
    max_tokens: z.int().min(1).max(MAX_AGENT_TOKENS).default(1024),
    temperature: z.number().min(0).max(2).default(0.5),
    workspace_id: workspaceIdSchema.optional(),
  });
export type AgentRunRequest = z.output<typeof agentRunSchema>;

export const runsQuerySchema = z.object({ limit: pageLimit });

export const trajectoryQuerySchema = z.object({
  full: z.enum(["true", "false", "1", "0"]).optional().transform((v) => v === "true" || v === "1"),
});

const hash64 = z.string().regex(/^sha256:[0-9a-f]{64}$/, { message: "must be sha256: followed by 64 lowercase hex characters (full hashes are required)" });

export const verifyStepSchema = z.object({
  index: z.int().min(0),
  model: z.string().max(200),
  input_hash: hash64,
  output_hash: hash64,
  cost_usd: z.number().finite(),
  confidence: z.number().finite(),
  timestamp: z.string().max(64),
});

export const agentVerifySchema = z
  .object({
    run_id: z.string().min(1).max(200),
    trajectory_proof: z.string().min(1).max(200),
    steps: z.array(verifyStepSchema).max(VERIFY_MAX_STEPS, { message: `at most ${VERIFY_MAX_STEPS} steps can be verified in one request` }),
    policy: z.string().max(64).default("balanced"),
    strategy: z.string().max(64).default("single"),
    output: z.string().optional(),
    output_hash: hash64.optional(),
    step_proofs: z.array(z.string().max(200)).max(VERIFY_MAX_STEPS, { message: `at most ${VERIFY_MAX_STEPS} step proofs` }).optional(),
  })
  .refine((b) => b.output !== undefined || b.output_hash !== undefined, { message: "give output (raw text, hashed by the service) or output_hash", path: ["output_hash"] });
export type AgentVerifyRequest = z.output<typeof agentVerifySchema>;
