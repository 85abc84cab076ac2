/**
 * Providers are data: each of the 12 catalog providers maps to a wire protocol and a default base
 * URL (shared/CATALOG.md). `<PROVIDER>_BASE_URL` overrides the URL and `<PROVIDER>_API_KEY` holds
 * the key, e.g. OPENAI_API_KEY, GOOGLE_BASE_URL, OPENROUTER_API_KEY.
 */
import type { ProviderId } from "../catalog/models";
import type { Env } from "../env";
import type { ProviderConfig } from "./types";

/** Differences between OpenAI-compatible servers that the one adapter has to know. */
export interface OpenAiCompat {
  /**
   * Mistral rejects `stream_options` with 422 (extra fields are forbidden) but reports usage in its
   * last chunk anyway; everyone else needs `include_usage` to report it.
   */
  streamOptions: boolean;
  /** OpenAI itself deprecated `max_tokens` and its reasoning models reject it. */
  maxTokensField: "max_tokens" | "max_completion_tokens";
  /** OpenAI's reasoning models (gpt-5*, o*) accept only the default temperature. */
  fixedTemperature?: RegExp;
  /** Perplexity rejects consecutive messages of one role ("user or tool messages should alternate"). */
  alternateTurns?: boolean;
  /** Takes `reasoning_effort` for its reasoning models; elsewhere the parameter is left out. */
  reasoningEffort?: boolean;
}

export interface ProviderEntry extends ProviderConfig {
  /** Only for the `openai` protocol. */
  compat?: OpenAiCompat;
}

const COMPAT: OpenAiCompat = { streamOptions: true, maxTokensField: "max_tokens" };

const p = (id: ProviderId, protocol: ProviderConfig["protocol"], baseUrl: string, compat?: OpenAiCompat): ProviderEntry =>
  protocol === "openai" ? { id, protocol, baseUrl, compat: compat ?? COMPAT } : { id, protocol, baseUrl };

export const PROVIDER_REGISTRY: Readonly<Record<ProviderId, ProviderEntry>> = {
  openai: p("openai", "openai", "https://api.openai.com/v1", {
    streamOptions: true,
    maxTokensField: "max_completion_tokens",
    fixedTemperature: /^(gpt-5|o\d)/,
    reasoningEffort: true,
  }),
  anthropic: p("anthropic", "anthropic", "https://api.anthropic.com/v1"),
  google: p("google", "gemini", "https://generativelanguage.googleapis.com/v1beta"),
  mistral: p("mistral", "openai", "https://api.mistral.ai/v1", { streamOptions: false, maxTokensField: "max_tokens" }),
  groq: p("groq", "openai", "https://api.groq.com/openai/v1", { streamOptions: true, maxTokensField: "max_tokens", reasoningEffort: true }),
  deepseek: p("deepseek", "openai", "https://api.deepseek.com/v1"),
  xai: p("xai", "openai", "https://api.x.ai/v1"),
  together: p("together", "openai", "https://api.together.xyz/v1"),
  fireworks: p("fireworks", "openai", "https://api.fireworks.ai/inference/v1", { streamOptions: true, maxTokensField: "max_tokens", reasoningEffort: true }),
  // Perplexity reports usage in its stream chunks unasked; not sending stream_options spares a 400 if it ever stops ignoring it.
  perplexity: p("perplexity", "openai", "https://api.perplexity.ai", { streamOptions: false, maxTokensField: "max_tokens", alternateTurns: true }),
  cohere: p("cohere", "openai", "https://api.cohere.ai/compatibility/v1"),
  openrouter: p("openrouter", "openai", "https://openrouter.ai/api/v1"),
};

const envName = (id: ProviderId, suffix: "API_KEY" | "BASE_URL") => `${id.toUpperCase()}_${suffix}` as const;

/** The provider's key, or undefined when none (or an empty one) is configured. */
export function providerKey(env: Env, id: ProviderId): string | undefined {
  return env[envName(id, "API_KEY")] || undefined;
}

/** Base URL without a trailing slash, so adapters can append paths. */
export function providerBaseUrl(env: Env, id: ProviderId): string {
  const url = env[envName(id, "BASE_URL")] || PROVIDER_REGISTRY[id].baseUrl;
  return url.endsWith("/") ? url.slice(0, -1) : url;
}
