import type { Adapter } from "./adapter";
import { anthropicAdapter } from "./anthropic";
import { geminiAdapter } from "./gemini";
import { openaiAdapter } from "./openai";
import type { Protocol } from "./types";

/** One adapter per wire protocol; the registry says which protocol a provider speaks. */
export const ADAPTERS: Readonly<Record<Protocol, Adapter>> = {
  openai: openaiAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
};
