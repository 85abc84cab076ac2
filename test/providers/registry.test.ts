import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../../src/catalog/models";
import type { Env } from "../../src/env";
import { PROVIDER_REGISTRY, providerBaseUrl, providerKey } from "../../src/providers/registry";

const bare = {} as Env;

describe("provider registry", () => {
  it("covers the 12 catalog providers with CATALOG.md's protocols and base URLs", () => {
    expect(Object.keys(PROVIDER_REGISTRY).sort()).toEqual([...PROVIDERS].sort());
    const table = Object.fromEntries(Object.values(PROVIDER_REGISTRY).map((p) => [p.id, [p.protocol, p.baseUrl]]));
    expect(table).toEqual({
      openai: ["openai", "https://api.openai.com/v1"],
      anthropic: ["anthropic", "https://api.anthropic.com/v1"],
      google: ["gemini", "https://generativelanguage.googleapis.com/v1beta"],
      mistral: ["openai", "https://api.mistral.ai/v1"],
      groq: ["openai", "https://api.groq.com/openai/v1"],
      deepseek: ["openai", "https://api.deepseek.com/v1"],
      xai: ["openai", "https://api.x.ai/v1"],
      together: ["openai", "https://api.together.xyz/v1"],
      fireworks: ["openai", "https://api.fireworks.ai/inference/v1"],
      perplexity: ["openai", "https://api.perplexity.ai"],
      cohere: ["openai", "https://api.cohere.ai/compatibility/v1"],
      openrouter: ["openai", "https://openrouter.ai/api/v1"],
    });
  });

  it("reads <PROVIDER>_API_KEY and <PROVIDER>_BASE_URL, ignoring empty values and trailing slashes", () => {
    const env = { ...bare, OPENROUTER_API_KEY: "or-key", GOOGLE_BASE_URL: "https://proxy.example/g/", OPENAI_API_KEY: "" } as Env;
    expect(providerKey(env, "openrouter")).toBe("or-key");
    expect(providerKey(env, "openai")).toBeUndefined();
    expect(providerBaseUrl(env, "google")).toBe("https://proxy.example/g");
    expect(providerBaseUrl(env, "openrouter")).toBe("https://openrouter.ai/api/v1");
  });
});
