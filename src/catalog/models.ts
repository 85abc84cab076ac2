/**
 * The model catalog: 27 models of 12 providers (shared/CATALOG.md). The one place prices live.
 * Prices are USD per million tokens. `id` is our catalog id; `upstream_id` is the provider's own.
 */
export type Tier = "budget" | "mid" | "premium" | "frontier";
export type ProviderId =
  | "openai" | "anthropic" | "google" | "mistral" | "groq" | "deepseek"
  | "xai" | "together" | "fireworks" | "perplexity" | "cohere" | "openrouter";
/**
 * `json_schema`: answers to a JSON Schema (OpenAI's response_format json_schema) natively.
 * `n`: answers several choices in one call (OpenAI's `n`, Gemini's candidateCount).
 */
export type Capability = "chat" | "code" | "reasoning" | "vision" | "long_context" | "search" | "tools" | "json_schema" | "n";

export interface Model {
  id: string;
  display_name: string;
  provider: ProviderId;
  tier: Tier;
  input_usd_per_mtok: number;
  output_usd_per_mtok: number;
  context_tokens: number;
  upstream_id: string;
  capabilities: readonly Capability[];
}

const m = (
  tier: Tier, provider: ProviderId, id: string, display_name: string, upstream_id: string,
  input: number, output: number, context_tokens: number, capabilities: Capability[],
): Model => ({ id, display_name, provider, tier, input_usd_per_mtok: input, output_usd_per_mtok: output, context_tokens, upstream_id, capabilities });

export const MODELS: readonly Model[] = [
  m("budget", "openrouter", "llama-3.2-3b", "Llama 3.2 3B Instruct", "meta-llama/llama-3.2-3b-instruct", 0.02, 0.02, 131072, ["chat"]),
  m("budget", "openai", "gpt-5-nano", "GPT-5 nano", "gpt-5-nano", 0.05, 0.4, 272000, ["chat", "code", "tools", "json_schema", "n"]),
  m("budget", "google", "gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite", "gemini-2.5-flash-lite", 0.1, 0.4, 1048576, ["chat", "vision", "long_context", "json_schema", "n"]),
  m("budget", "groq", "gpt-oss-120b", "GPT-OSS 120B (Groq)", "openai/gpt-oss-120b", 0.15, 0.6, 131072, ["chat", "code", "reasoning", "tools", "json_schema"]),
  m("budget", "cohere", "command-r-08-2024", "Command R (08-2024)", "command-r-08-2024", 0.15, 0.6, 128000, ["chat", "tools"]),
  m("budget", "xai", "grok-4-1-fast", "Grok 4.1 Fast", "grok-4-1-fast", 0.2, 0.5, 2000000, ["chat", "reasoning", "long_context", "tools", "json_schema"]),
  m("budget", "fireworks", "qwen3-235b-a22b", "Qwen3 235B A22B Instruct", "accounts/fireworks/models/qwen3-235b-a22b-instruct-2507", 0.22, 0.88, 262144, ["chat", "code", "tools", "json_schema", "n"]),
  m("budget", "together", "llama-4-maverick", "Llama 4 Maverick", "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8", 0.27, 0.85, 1048576, ["chat", "vision", "long_context", "n"]),
  m("budget", "deepseek", "deepseek-chat", "DeepSeek V3 Chat", "deepseek-chat", 0.28, 0.42, 131072, ["chat", "code", "tools"]),
  m("mid", "openai", "gpt-5-mini", "GPT-5 mini", "gpt-5-mini", 0.25, 2.0, 272000, ["chat", "code", "reasoning", "vision", "tools", "json_schema", "n"]),
  m("mid", "google", "gemini-2.5-flash", "Gemini 2.5 Flash", "gemini-2.5-flash", 0.3, 2.5, 1048576, ["chat", "code", "reasoning", "vision", "long_context", "tools", "json_schema", "n"]),
  m("mid", "mistral", "mistral-medium-2508", "Mistral Medium 3.1", "mistral-medium-2508", 0.4, 2.0, 131072, ["chat", "code", "tools", "json_schema", "n"]),
  m("mid", "openrouter", "glm-4.7", "GLM 4.7", "z-ai/glm-4.7", 0.4, 1.5, 202752, ["chat", "code", "reasoning", "tools"]),
  m("mid", "mistral", "mistral-large-2512", "Mistral Large 3", "mistral-large-2512", 0.5, 1.5, 262144, ["chat", "code", "tools", "json_schema", "n"]),
  m("mid", "together", "kimi-k2.5", "Kimi K2.5", "moonshotai/Kimi-K2.5", 0.5, 2.8, 256000, ["chat", "code", "reasoning", "tools", "n"]),
  m("mid", "fireworks", "deepseek-v3.2", "DeepSeek V3.2", "accounts/fireworks/models/deepseek-v3p2", 0.56, 1.68, 163840, ["chat", "code", "reasoning", "tools", "json_schema", "n"]),
  m("mid", "groq", "kimi-k2-instruct", "Kimi K2 Instruct (Groq)", "moonshotai/kimi-k2-instruct-0905", 1.0, 3.0, 262144, ["chat", "code", "tools"]),
  m("mid", "anthropic", "claude-haiku-4-5", "Claude Haiku 4.5", "claude-haiku-4-5", 1.0, 5.0, 200000, ["chat", "code", "vision", "tools", "json_schema"]),
  m("mid", "perplexity", "sonar", "Perplexity Sonar", "sonar", 1.0, 1.0, 128000, ["chat", "search"]),
  m("premium", "openai", "gpt-5.2", "GPT-5.2", "gpt-5.2", 1.75, 14.0, 272000, ["chat", "code", "reasoning", "vision", "tools", "json_schema", "n"]),
  m("premium", "google", "gemini-3.1-pro-preview", "Gemini 3.1 Pro (preview)", "gemini-3.1-pro-preview", 2.0, 12.0, 1048576, ["chat", "code", "reasoning", "vision", "long_context", "tools", "json_schema"]),
  m("premium", "cohere", "command-a-03-2025", "Command A (03-2025)", "command-a-03-2025", 2.5, 10.0, 256000, ["chat", "tools"]),
  m("premium", "anthropic", "claude-sonnet-4-6", "Claude Sonnet 4.6", "claude-sonnet-4-6", 3.0, 15.0, 1000000, ["chat", "code", "reasoning", "vision", "long_context", "tools", "json_schema"]),
  m("premium", "xai", "grok-4", "Grok 4", "grok-4", 3.0, 15.0, 256000, ["chat", "code", "reasoning", "tools", "json_schema"]),
  m("premium", "perplexity", "sonar-pro", "Perplexity Sonar Pro", "sonar-pro", 3.0, 15.0, 200000, ["chat", "search"]),
  m("frontier", "anthropic", "claude-opus-4-6", "Claude Opus 4.6", "claude-opus-4-6", 5.0, 25.0, 1000000, ["chat", "code", "reasoning", "vision", "long_context", "tools", "json_schema"]),
  m("frontier", "openai", "gpt-5.2-pro", "GPT-5.2 Pro", "gpt-5.2-pro", 21.0, 168.0, 272000, ["chat", "code", "reasoning", "vision", "tools", "json_schema", "n"]),
];

const BY_ID = new Map<string, Model>();
for (const model of MODELS) {
  BY_ID.set(model.id, model);
  // The provider's own id is accepted too, so a client that names `openai/gpt-oss-120b` is understood.
  if (!BY_ID.has(model.upstream_id)) BY_ID.set(model.upstream_id, model);
}

export function findModel(id: string): Model | undefined {
  return BY_ID.get(id);
}

export const PROVIDERS: readonly ProviderId[] = [...new Set(MODELS.map((x) => x.provider))];

/** A 3:1 input-to-output mix, as cost/money.ts blendedUsdPerMtok ranks (catalog sits below cost). */
const blended = (model: Model) => 3 * model.input_usd_per_mtok + model.output_usd_per_mtok;

/** The three cheapest budget models: the Free plan's allowlist (SPEC.md section 8, rule 2). */
export const FREE_MODEL_IDS: readonly string[] = MODELS.filter((x) => x.tier === "budget")
  .toSorted((a, b) => blended(a) - blended(b) || a.id.localeCompare(b.id))
  .slice(0, 3)
  .map((x) => x.id);

/**
 * Hyper-frontier: the catalog's most expensive tier within frontier, output at $100 or more per
 * million tokens (today gpt-5.2-pro). SPEC.md 4.4 excludes these from agents on flat-price plans.
 */
export const HYPER_FRONTIER_OUTPUT_USD = 100;
export const isHyperFrontier = (m: Model) => m.output_usd_per_mtok >= HYPER_FRONTIER_OUTPUT_USD;

/** Catalog publication date: a stable `created` for every entry (OpenAI's model objects carry one). */
export const CATALOG_CREATED = 1767225600; // 2026-01-01T00:00:00Z

/** A model as `GET /v1/models` and `GET /v1/models/{id}` show it: OpenAI's model object plus the catalog's fields. */
export const catalogEntry = (model: Model) => ({
  id: model.id,
  object: "model" as const,
  created: CATALOG_CREATED,
  owned_by: model.provider,
  display_name: model.display_name,
  provider: model.provider,
  tier: model.tier,
  input_usd_per_mtok: model.input_usd_per_mtok,
  output_usd_per_mtok: model.output_usd_per_mtok,
  context_tokens: model.context_tokens,
  upstream_id: model.upstream_id,
  capabilities: model.capabilities,
});
