import { z } from "zod";
import { MAX_TOKENS_CEILING } from "../routing/request-schema";
import { POLICIES } from "../orchestrate/policy";

/** SPEC.md 4.3 and 8: code's defaults. */
export const DEFAULT_MAX_TOKENS = 2048;
export const DEFAULT_TEMPERATURE = 0.2;
export const DEFAULT_MAX_ITERS = 3;
export const MAX_ITERS_CEILING = 10;
/** A coder's reply must hold at least one fenced file: below this no model can answer usefully. */
export const MIN_MAX_TOKENS = 256;

/**
 * The POST /v2/code body with its defaults applied. A missing, empty or blank `task` is SPEC.md's
 * 400 `no_task`, raised by `runCode()`, not a schema error.
 */
export const codeRequestSchema = z.object({
  task: z.string().default(""),
  language: z.string().trim().regex(/^[A-Za-z][A-Za-z0-9+#._-]{0,39}$/, "a language name such as python, typescript or c++").optional(),
  policy: z.enum(POLICIES).default("balanced"),
  coder_model: z.string().optional(),
  reviewer_model: z.string().optional(),
  max_iters: z.int().min(1).max(MAX_ITERS_CEILING).default(DEFAULT_MAX_ITERS),
  review: z.boolean().default(true),
  max_tokens: z.int().min(MIN_MAX_TOKENS).max(MAX_TOKENS_CEILING).default(DEFAULT_MAX_TOKENS),
  temperature: z.number().min(0).max(2).default(DEFAULT_TEMPERATURE),
  max_cost_usd: z.number().positive().optional(),
  include_trace: z.boolean().default(true),
});

export type CodeRequest = z.output<typeof codeRequestSchema>;
