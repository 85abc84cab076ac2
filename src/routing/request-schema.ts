import { z } from "zod";
import { AUTO_MODES, brainConfigSchema } from "./brain-config";

/**
 * The chat request body (SPEC.md 4.1), shared by POST /v1/chat/completions and POST /v1/route so
 * both validate alike. The fields of 4.1 are checked strictly; anything else an OpenAI client sends
 * (`n`, `user`, `top_p`, `stream_options`, `tools`...) passes through untouched instead of failing.
 */

export const DEFAULT_MAX_TOKENS = 1000;
export const DEFAULT_TEMPERATURE = 0.7;
/** The largest context window in the catalog: no completion budget above it can be served. */
export const MAX_TOKENS_CEILING = 2_000_000;

const messageSchema = z.object({
  role: z.enum(["system", "user", "assistant"]),
  content: z.string(),
});

const maxTokens = z.int().min(1).max(MAX_TOKENS_CEILING);

export const chatRequestSchema = z
  .looseObject({
    messages: z.array(messageSchema).min(1, { message: "messages must hold at least one message" }),
    model: z.string().trim().min(1).optional(),
    max_tokens: maxTokens.optional(),
    // Newer OpenAI SDKs send this name instead of max_tokens.
    max_completion_tokens: maxTokens.optional(),
    temperature: z.number().min(0).max(2).optional(),
    stream: z.boolean().optional(),
    routing_mode: z.enum(AUTO_MODES).optional(),
    brain_config: brainConfigSchema.nullish(),
  })
  .transform(({ max_completion_tokens, brain_config, ...body }) => ({
    ...body,
    model: body.model ?? "auto",
    max_tokens: body.max_tokens ?? max_completion_tokens ?? DEFAULT_MAX_TOKENS,
    temperature: body.temperature ?? DEFAULT_TEMPERATURE,
    stream: body.stream ?? false,
    brain_config: brain_config ?? undefined,
  }));

export type ChatRequest = z.output<typeof chatRequestSchema>;
