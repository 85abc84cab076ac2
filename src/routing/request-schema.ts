import { z } from "zod";
import { callOptionsOf, openAiMessageSchema, openAiParamsShape, paramIssues, toMessage } from "../providers/openai-request";
import { AUTO_MODES, brainConfigSchema } from "./brain-config";

/**
 * The chat request body (SPEC.md 4.1), shared by POST /v1/chat/completions and POST /v1/route so
 * both validate alike. The fields of 4.1 are checked strictly, and so are the OpenAI parameters the
 * gateway carries (content parts, tools, response_format, stop...; docs/compatibility.md); anything
 * else an OpenAI client sends passes through untouched instead of failing.
 */

export const DEFAULT_MAX_TOKENS = 1000;
export const DEFAULT_TEMPERATURE = 0.7;
/** The largest context window in the catalog: no completion budget above it can be served. */
export const MAX_TOKENS_CEILING = 2_000_000;

const maxTokens = z.int().min(1).max(MAX_TOKENS_CEILING);

export const chatRequestSchema = z
  .looseObject({
    messages: z.array(openAiMessageSchema).min(1, { message: "messages must hold at least one message" }),
    model: z.string().trim().min(1).optional(),
    max_tokens: maxTokens.optional(),
    // Newer OpenAI SDKs send this name instead of max_tokens.
    max_completion_tokens: maxTokens.optional(),
    temperature: z.number().min(0).max(2).optional(),
    stream: z.boolean().optional(),
    routing_mode: z.enum(AUTO_MODES).optional(),
    brain_config: brainConfigSchema.nullish(),
    ...openAiParamsShape,
  })
  .superRefine((body, ctx) => {
    for (const issue of paramIssues(body)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  })
  .transform(({ max_completion_tokens, brain_config, messages, ...body }) => ({
    ...body,
    messages: messages.map(toMessage),
    options: callOptionsOf(body),
    include_usage: body.stream_options?.include_usage === true,
    model: body.model ?? "auto",
    max_tokens: body.max_tokens ?? max_completion_tokens ?? DEFAULT_MAX_TOKENS,
    temperature: body.temperature ?? DEFAULT_TEMPERATURE,
    stream: body.stream ?? false,
    brain_config: brain_config ?? undefined,
  }));

export type ChatRequest = z.output<typeof chatRequestSchema>;
