import { describe, expect, it } from "vitest";
import { costUsd } from "../../src/cost/money";
import type { ChatMessage } from "../../src/providers/types";
import { parseBrainConfig } from "../../src/brain/check";
import { route } from "../../src/routing/router";
import type { BrainConfig, RouteInput } from "../../src/routing/types";

const user = (content: string): ChatMessage[] => [{ role: "user", content }];
const CODE = "Write a Python function that parses a CSV file and returns a list of dicts.";
const POEM = "Write a short poem about autumn leaves.";
const routeWith = (brainConfig: BrainConfig, content = CODE, extra: Partial<RouteInput> = {}) =>
  route({ messages: user(content), model: "auto", allowedModels: null, maxTokens: 1000, brainConfig, ...extra });
const ids = (d: ReturnType<typeof route>) => d.candidates.map((m) => m.id);

describe("parseBrainConfig: normalisation", () => {
  it("gives the canonical form: alias folded, ids in catalog form, lists de-duplicated, single values as lists", () => {
    const { config, valid, errors } = parseBrainConfig({
      model: "openai/gpt-oss-120b",
      max_cost: 0.02,
      blocked: ["xai", "meta-llama/llama-3.2-3b-instruct", "xai"],
      fallback: ["gpt-5-mini", "gpt-5-mini", "claude-haiku-4-5"],
      rules: [
        { when: { signal: "code", contains: "SQL" }, model: "claude-sonnet-4-6" },
        { when: { signal: ["math", "reasoning"], min_chars: 10, max_chars: 500 }, mode: "quality" },
        { mode: "agility" },
      ],
      compliance: { jurisdiction: "eu", frameworks: ["gdpr"] },
    });
    expect(errors).toEqual([]);
    expect(valid).toBe(true);
    expect(config).toEqual({
      model: "gpt-oss-120b",
      max_cost_per_request: 0.02,
      blocked: ["xai", "llama-3.2-3b"],
      fallback: ["gpt-5-mini", "claude-haiku-4-5"],
      rules: [
        { when: { signal: ["code"], contains: ["sql"] }, model: "claude-sonnet-4-6" },
        { when: { signal: ["math", "reasoning"], min_chars: 10, max_chars: 500 }, mode: "quality" },
        { when: {}, mode: "agility" },
      ],
      compliance: { jurisdiction: "eu", frameworks: ["gdpr"] },
    });
  });

  it("keeps the stricter cap when both spellings are given, and drops model auto", () => {
    expect(parseBrainConfig({ max_cost_per_request: 0.5, max_cost: 0.1, model: "auto" }).config).toEqual({ max_cost_per_request: 0.1 });
    expect(parseBrainConfig({}).config).toEqual({});
  });

  it("is idempotent: the canonical form parses to itself", () => {
    const once = parseBrainConfig({ max_cost: 1, blocked: ["openai"], rules: [{ when: { contains: "X" }, mode: "balanced" }] }).config;
    expect(parseBrainConfig(once)).toEqual({ config: once, valid: true, errors: [], warnings: [] });
  });

  it("reports each problem with its path and keeps the valid parts; unknown names are warnings", () => {
    const { config, valid, errors, warnings } = parseBrainConfig({
      model: "gpt-9",
      max_cost: -1,
      blocked: ["openai", "acme"],
      fallback: "gpt-5-mini",
      rules: [
        { when: { signal: "poetry" }, model: "gpt-5-mini" },
        { when: { signal: "code" }, model: "gpt-5-mini", mode: "quality" },
        { when: { min_chars: 10, max_chars: 5 }, mode: "agility" },
        { when: { signal: "code", color: "red" }, mode: "agility" },
        { when: { signal: "creative" }, mode: "agility" },
      ],
      colour: "blue",
    });
    expect(valid).toBe(false);
    expect(errors).toHaveLength(7);
    // Routing copes with names it does not know (it routes by mode and says so), so they warn.
    expect(warnings.some((e) => e.startsWith("model: unknown model \"gpt-9\""))).toBe(true);
    expect(warnings.some((e) => e.startsWith("blocked.1:") && e.includes('"acme" is neither'))).toBe(true);
    expect(errors.some((e) => e.startsWith("max_cost:"))).toBe(true);
    expect(errors.some((e) => e.startsWith("fallback:"))).toBe(true);
    expect(errors.some((e) => e.startsWith("rules.0.when.signal"))).toBe(true);
    expect(errors.some((e) => e.startsWith("rules.1") && e.includes("exactly one of model or mode"))).toBe(true);
    expect(errors.some((e) => e.startsWith("rules.2") && e.includes("min_chars must not exceed max_chars"))).toBe(true);
    expect(errors.some((e) => e.startsWith("rules.3") && e.includes("color"))).toBe(true);
    expect(errors.some((e) => e.startsWith("colour: unknown key"))).toBe(true);
    // The one good rule survives; the bad keys are dropped; the unknown names are kept as written.
    expect(config).toEqual({ model: "gpt-9", blocked: ["openai", "acme"], rules: [{ when: { signal: ["creative"] }, mode: "agility" }] });
  });

  it("rejects what is not an object", () => {
    for (const input of [null, "model: auto", [], 42]) {
      const r = parseBrainConfig(input);
      expect(r.valid).toBe(false);
      expect(r.config).toEqual({});
      expect(r.errors[0]).toContain("a brain config is an object");
    }
  });
});

describe("brain_config in routing", () => {
  it("blocked by model id excludes that model everywhere in the chain", () => {
    expect(routeWith({}).candidates[0]!.id).toBe("glm-4.7");
    const d = routeWith({ blocked: ["glm-4.7"] });
    expect(d.candidates[0]!.id).toBe("gpt-5-mini");
    expect(ids(d)).not.toContain("glm-4.7");
  });

  it("blocked by provider excludes all its models", () => {
    for (const mode of ["quality", "balanced", "agility"] as const) {
      const d = routeWith({ blocked: ["openai", "anthropic"] }, CODE, { routingMode: mode });
      expect(d.candidates.every((m) => m.provider !== "openai" && m.provider !== "anthropic")).toBe(true);
    }
  });

  it("a pinned model that is blocked is replaced, and the reason says so", () => {
    const d = routeWith({ blocked: ["anthropic"] }, CODE, { model: "claude-opus-4-6" });
    expect(d.candidates[0]!.provider).not.toBe("anthropic");
    expect(d.reason).toContain("claude-opus-4-6 (the request's model) is blocked by brain_config");
  });

  it("fallback models follow the chosen one, in the given order, before automatic fallbacks", () => {
    const d = routeWith({ fallback: ["claude-haiku-4-5", "gpt-5.2", "glm-4.7"] });
    expect(ids(d).slice(0, 3)).toEqual(["glm-4.7", "claude-haiku-4-5", "gpt-5.2"]);
    expect(d.candidates.length).toBeGreaterThan(3);
  });

  it("fallback models outside the constraints are left out", () => {
    const d = routeWith({ fallback: ["grok-4", "claude-haiku-4-5"], blocked: ["xai"] });
    expect(ids(d)[1]).toBe("claude-haiku-4-5");
    expect(ids(d)).not.toContain("grok-4");
  });

  it("max_cost excludes models whose worst case (prompt + whole completion budget) exceeds it", () => {
    // A standard code prompt: quality puts it on the premium tier.
    const uncapped = routeWith({}, CODE, { routingMode: "quality" });
    expect(uncapped.candidates[0]!.id).toBe("gemini-3.1-pro-preview");
    for (const key of ["max_cost", "max_cost_per_request"] as const) {
      const d = routeWith({ [key]: 0.01 }, CODE, { routingMode: "quality" });
      for (const m of d.candidates) expect(costUsd(m, d.estimated_prompt_tokens, 1000).total_usd).toBeLessThanOrEqual(0.01);
      expect(ids(d)).not.toContain("gemini-3.1-pro-preview");
      expect(d.reason).toContain("nearest tier");
    }
  });

  it("a pinned model over max_cost is replaced, and the reason gives the numbers", () => {
    const d = routeWith({ max_cost: 0.001 }, CODE, { model: "gpt-5.2-pro" });
    expect(d.candidates[0]!.id).not.toBe("gpt-5.2-pro");
    expect(d.reason).toContain("gpt-5.2-pro (the request's model) could cost up to $0.168");
    expect(d.reason).toContain("over max_cost_per_request $0.001");
  });

  it("a cap nothing meets gives the cheapest worst case as the last resort", () => {
    const d = routeWith({ max_cost: 0.0000001 });
    expect(d.rule).toBe("last_resort");
    expect(ids(d)).toEqual(["llama-3.2-3b"]);
    expect(d.reason).toContain("giving up max_cost_per_request");
  });

  it("a rule on a signal chooses a model", () => {
    const config: BrainConfig = { rules: [{ when: { signal: "code" }, model: "claude-sonnet-4-6" }] };
    const d = routeWith(config);
    expect(d.mode).toBe("direct");
    expect(d.candidates[0]!.id).toBe("claude-sonnet-4-6");
    expect(d.rule).toBe("brain_config.rules[0]");
    expect(d.reason).toContain("Pinned by brain_config rule 1 (signal code): claude-sonnet-4-6.");
    expect(routeWith(config, POEM).rule).toBe("default_mode");
  });

  it("a rule on contained text chooses a mode, case-insensitively", () => {
    const config: BrainConfig = { rules: [{ when: { contains: ["urgent", "asap"] }, mode: "agility" }] };
    const d = routeWith(config, "URGENT: explain step by step why the build fails");
    expect(d.mode).toBe("agility");
    expect(d.tier).toBe("budget");
    expect(d.reason).toContain('brain_config rule 1 (text contains "urgent" or "asap")');
    expect(routeWith(config, "explain step by step why the build fails").mode).toBe("balanced");
  });

  it("rules on length use the last user message", () => {
    const config: BrainConfig = {
      rules: [
        { when: { max_chars: 20 }, model: "gpt-5-nano" },
        { when: { min_chars: 200 }, mode: "quality" },
      ],
    };
    expect(routeWith(config, "hi").candidates[0]!.id).toBe("gpt-5-nano");
    expect(routeWith(config, POEM).rule).toBe("default_mode");
    expect(routeWith(config, `${POEM} `.repeat(6)).mode).toBe("quality");
  });

  it("the first matching rule wins, and every condition of a rule must hold", () => {
    const config: BrainConfig = {
      rules: [
        { when: { signal: "code", contains: "sql" }, model: "deepseek-v3.2" },
        { when: { signal: ["code", "math"] }, model: "claude-haiku-4-5" },
        { when: {}, model: "gpt-5-nano" },
      ],
    };
    expect(routeWith(config, "Write the SQL query and the Python code").candidates[0]!.id).toBe("deepseek-v3.2");
    expect(routeWith(config, CODE).candidates[0]!.id).toBe("claude-haiku-4-5");
    expect(routeWith(config, "Solve for x: 3x + 5 = 20").candidates[0]!.id).toBe("claude-haiku-4-5");
    expect(routeWith(config, POEM).candidates[0]!.id).toBe("gpt-5-nano");
  });

  it("precedence: request model, then rules, then brain_config model, then routing_mode", () => {
    const config: BrainConfig = { model: "mistral-large-2512", rules: [{ when: { signal: "code" }, mode: "quality" }] };
    expect(routeWith(config, CODE, { model: "gpt-5-nano" }).candidates[0]!.id).toBe("gpt-5-nano");
    expect(routeWith(config, CODE, { routingMode: "agility" }).mode).toBe("quality");
    const pinned = routeWith(config, POEM, { routingMode: "agility" });
    expect(pinned.candidates[0]!.id).toBe("mistral-large-2512");
    expect(pinned.rule).toBe("brain_config.model");
    expect(routeWith({}, POEM, { routingMode: "agility" }).mode).toBe("agility");
  });

  it("a rule's model off the plan goes to the cheapest allowed model", () => {
    const d = routeWith({ rules: [{ when: { signal: "code" }, model: "claude-opus-4-6" }] }, CODE, { allowedModels: ["gpt-5-nano", "llama-3.2-3b"] });
    expect(d.candidates[0]!.id).toBe("llama-3.2-3b");
    expect(d.rule).toBe("plan_restriction");
    expect(d.reason).toContain("claude-opus-4-6 (brain_config rule 1 (signal code)) is not available on your plan");
  });

  it("compliance is carried, not used by routing", () => {
    expect(ids(routeWith({ compliance: { jurisdiction: "eu" } }))).toEqual(ids(routeWith({})));
  });
});

describe("brain_config that did not go through the normaliser", () => {
  it("an unknown model in a rule or in model routes by mode, and the reason names it", () => {
    const byRule = routeWith({ rules: [{ when: { signal: "code" }, model: "gpt-9" }] });
    expect(byRule.candidates[0]!.id).toBe("glm-4.7");
    expect(byRule.reason).toContain('brain_config rule 1 (signal code) names unknown model "gpt-9"');
    const byModel = routeWith({ model: "gpt-9" }, CODE, { routingMode: "agility" });
    expect(byModel.mode).toBe("agility");
    expect(byModel.reason).toContain('brain_config model names unknown model "gpt-9"');
  });

  it("blocked and fallback entries are matched by upstream id too", () => {
    const d = routeWith({ blocked: ["z-ai/glm-4.7"], fallback: ["moonshotai/Kimi-K2.5"] });
    expect(d.candidates[0]!.id).toBe("gpt-5-mini");
    expect(d.candidates[1]!.id).toBe("kimi-k2.5");
  });
});
