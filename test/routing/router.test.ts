import { describe, expect, it } from "vitest";
import { FREE_MODEL_IDS, findModel, MODELS, type Tier } from "../../src/catalog/models";
import { blendedUsdPerMtok } from "../../src/cost/money";
import type { ChatMessage } from "../../src/providers/types";
import { route } from "../../src/routing/router";
import { TIERS } from "../../src/routing/tiers";
import type { RouteInput } from "../../src/routing/types";

const user = (content: string): ChatMessage[] => [{ role: "user", content }];
const input = (content: string, extra: Partial<RouteInput> = {}): RouteInput => ({
  messages: user(content),
  model: "auto",
  allowedModels: null,
  maxTokens: 1000,
  ...extra,
});
const ids = (d: ReturnType<typeof route>) => d.candidates.map((m) => m.id);
const tierRank = (t: Tier) => TIERS.indexOf(t);

const PROMPTS = {
  simple: "What is the capital of France?",
  code: "Write a Python function that parses a CSV file and returns a list of dicts.",
  math: "Solve for x: 3x + 5 = 20",
  reasoning: "Explain why the Roman Empire fell, step by step.",
  // The corpus labels a short poem light (a one-step creative task) and a short story standard.
  creative: "Write a short story about a lighthouse keeper who finds a message in a bottle.",
  extraction: "Extract all the names and email addresses from this: John (john@x.com), Mary (m@y.org).",
  // A pasted article (a one-sentence "article" in three bullets reads light since issue 15's tenth pass).
  summarization:
    "Summarize this article in three bullet points:\n\nThe economy grew by 1.2% in the third quarter, driven by exports and a rebound in construction. Inflation eased to 2.8%, but wages rose faster than prices for the first time in two years. The central bank kept rates unchanged and said it would wait for more data before cutting.",
  translation: "Translate 'good morning' into Spanish.",
} as const;

// Prompt kind x mode -> chosen model (docs/routing.md, "Modes": difficulty sets the tier, then the
// ranking). The difficulty of each prompt is in the comment; `quality` lifts light prompts with a task
// to mid and standard ones to premium, but keeps a simple question on budget.
const EXPECTED: Array<[keyof typeof PROMPTS, "quality" | "balanced" | "agility", string, Tier]> = [
  ["simple", "quality", "gpt-oss-120b", "budget"], // simple
  ["simple", "balanced", "llama-3.2-3b", "budget"],
  ["simple", "agility", "llama-3.2-3b", "budget"],
  ["code", "quality", "gemini-3.1-pro-preview", "premium"], // standard
  ["code", "balanced", "glm-4.7", "mid"],
  ["code", "agility", "gpt-5-nano", "budget"],
  ["math", "quality", "gemini-2.5-flash", "mid"], // light
  ["math", "balanced", "gpt-oss-120b", "budget"],
  ["math", "agility", "gpt-oss-120b", "budget"],
  ["reasoning", "quality", "gemini-3.1-pro-preview", "premium"], // standard
  ["reasoning", "balanced", "glm-4.7", "mid"],
  ["reasoning", "agility", "gpt-oss-120b", "budget"],
  ["creative", "quality", "gemini-3.1-pro-preview", "premium"], // standard
  ["creative", "balanced", "glm-4.7", "mid"],
  ["creative", "agility", "llama-3.2-3b", "budget"],
  ["extraction", "balanced", "glm-4.7", "mid"], // standard
  ["summarization", "quality", "gemini-3.1-pro-preview", "premium"], // standard
  ["summarization", "balanced", "glm-4.7", "mid"],
  ["translation", "balanced", "llama-3.2-3b", "budget"], // light
  ["translation", "agility", "llama-3.2-3b", "budget"],
];

/** Prompts that need a strong model: multi-step proofs, system design, long constrained writing. */
const STRONG = [
  "Prove that there are infinitely many primes of the form 4k + 3.",
  "Design a multi-region event-sourced order system for 20k writes per second: consistency model, partitioning, replay, schema evolution and failure modes.",
];

describe("route: modes", () => {
  it.each(EXPECTED)("%s prompt, %s mode -> %s (%s)", (kind, mode, model, tier) => {
    const d = route(input(PROMPTS[kind], { routingMode: mode }));
    expect(d.mode).toBe(mode);
    expect(d.candidates[0]!.id).toBe(model);
    expect(d.tier).toBe(tier);
    expect(d.signals_detected[kind]).toBe(true);
    expect(d.rule).toBe("routing_mode");
    // The reason names the signal with its score, the difficulty, and the mode that chose.
    expect(d.reason).toMatch(new RegExp(`^Signals: ${kind} \\(\\d\\.\\d\\d\\)\\. Difficulty: ${d.difficulty} \\(standard \\d\\.\\d\\d, strong \\d\\.\\d\\d\\)\\.`));
    expect(d.signal_scores[kind]).toBeGreaterThanOrEqual(0.5);
    expect(d.reason.toLowerCase()).toContain(`${mode} mode`);
    expect(d.reason).toContain(model);
  });

  it("balanced is the default when routing_mode is omitted", () => {
    for (const prompt of Object.values(PROMPTS)) {
      const d = route(input(prompt));
      expect(d.mode).toBe("balanced");
      expect(d.rule).toBe("default_mode");
      expect(ids(d)).toEqual(ids(route(input(prompt, { routingMode: "balanced" }))));
    }
  });

  it("quality never picks a lower tier than balanced, nor balanced than agility", () => {
    for (const prompt of Object.values(PROMPTS)) {
      const [q, b, a] = (["quality", "balanced", "agility"] as const).map((m) => route(input(prompt, { routingMode: m })));
      expect(tierRank(q!.tier)).toBeGreaterThanOrEqual(tierRank(b!.tier));
      expect(tierRank(b!.tier)).toBeGreaterThanOrEqual(tierRank(a!.tier));
    }
  });

  it("prefers models with the capability a signal needs", () => {
    for (const mode of ["quality", "balanced", "agility"] as const) {
      expect(route(input(PROMPTS.code, { routingMode: mode })).candidates[0]!.capabilities).toContain("code");
      expect(route(input(PROMPTS.math, { routingMode: mode })).candidates[0]!.capabilities).toContain("reasoning");
    }
  });

  it("agility picks the cheapest model of the tier that fits", () => {
    const d = route(input(PROMPTS.simple, { routingMode: "agility" }));
    const cheapest = MODELS.toSorted((a, b) => blendedUsdPerMtok(a) - blendedUsdPerMtok(b))[0]!;
    expect(d.candidates[0]).toBe(cheapest);
  });
});

describe("route: difficulty drives the tier", () => {
  it("balanced sends a strong prompt to premium or frontier, on a model that reasons", () => {
    for (const prompt of STRONG) {
      const d = route(input(prompt));
      expect(d.difficulty).toBe("strong");
      expect(["premium", "frontier"]).toContain(d.tier);
      expect(d.candidates[0]!.capabilities).toContain("reasoning");
      expect(d.reason).toContain("puts a strong prompt on the premium tier");
    }
  });

  it("quality lifts a strong prompt to frontier, agility never below premium", () => {
    for (const prompt of STRONG) {
      expect(route(input(prompt, { routingMode: "quality" })).tier).toBe("frontier");
      const agile = route(input(prompt, { routingMode: "agility" }));
      expect(["premium", "frontier"]).toContain(agile.tier);
      expect(agile.candidates[0]!.capabilities).toContain("reasoning");
    }
  });

  it("quality does not lift a greeting", () => {
    for (const greeting of ["hello!", "thanks, that helped"]) {
      const d = route(input(greeting, { routingMode: "quality" }));
      expect(d.signals_detected.simple).toBe(true);
      expect(d.tier).toBe("budget");
    }
  });

  it("reports the scores it decided from", () => {
    const d = route(input(STRONG[0]!));
    expect(Object.keys(d.signal_scores).sort()).toEqual(Object.keys(d.signals_detected).sort());
    for (const [signal, score] of Object.entries(d.signal_scores)) {
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
      if (signal !== "simple" && signal !== "long_context") expect(d.signals_detected[signal as keyof typeof d.signals_detected]).toBe(score >= 0.5);
    }
    expect(d.difficulty_scores.strong).toBeGreaterThanOrEqual(0.5);
  });
});

describe("route: determinism", () => {
  it("gives the same decision for the same input, every time", () => {
    for (const prompt of Object.values(PROMPTS)) {
      for (const mode of ["quality", "balanced", "agility"] as const) {
        const first = route(input(prompt, { routingMode: mode }));
        for (let i = 0; i < 3; i++) expect(route(input(prompt, { routingMode: mode }))).toEqual(first);
      }
    }
  });

  it("does not depend on earlier calls (no state carried between decisions)", () => {
    const before = route(input(PROMPTS.creative));
    route(input(PROMPTS.code, { routingMode: "quality", brainConfig: { blocked: ["anthropic"], max_cost: 0.001 } }));
    route(input("x".repeat(40_000)));
    expect(route(input(PROMPTS.creative))).toEqual(before);
  });
});

describe("route: pinned and unknown models", () => {
  it("a catalog id pins the model: mode direct", () => {
    const d = route(input(PROMPTS.simple, { model: "claude-sonnet-4-6" }));
    expect(d.mode).toBe("direct");
    expect(d.candidates[0]!.id).toBe("claude-sonnet-4-6");
    expect(d.tier).toBe("premium");
    expect(d.rule).toBe("request_model");
    expect(d.reason).toContain("Pinned by the request's model: claude-sonnet-4-6.");
  });

  it("an upstream id pins the same catalog model", () => {
    expect(route(input(PROMPTS.simple, { model: "openai/gpt-oss-120b" })).candidates[0]!.id).toBe("gpt-oss-120b");
    expect(route(input(PROMPTS.simple, { model: "meta-llama/llama-3.2-3b-instruct" })).candidates[0]!.id).toBe("llama-3.2-3b");
  });

  it("a pin overrides routing_mode", () => {
    const d = route(input(PROMPTS.code, { model: "gpt-5-nano", routingMode: "quality" }));
    expect(d.mode).toBe("direct");
    expect(d.candidates[0]!.id).toBe("gpt-5-nano");
  });

  it('"auto" and an empty model route by mode', () => {
    expect(route(input(PROMPTS.code, { model: "auto" })).mode).toBe("balanced");
    expect(route(input(PROMPTS.code, { model: "  " })).mode).toBe("balanced");
  });

  it("an unknown id falls back to a safe budget default, and the reason says so", () => {
    const d = route(input(PROMPTS.code, { model: "gpt-9-ultra" }));
    expect(d.tier).toBe("budget");
    expect(d.candidates[0]!.id).toBe("gpt-5-nano");
    expect(d.rule).toBe("unknown_model");
    expect(d.reason).toContain('Unknown model "gpt-9-ultra"');
    expect(d.reason).toContain("safe budget default");
    expect(route(input(PROMPTS.simple, { model: "nope" })).tier).toBe("budget");
  });
});

describe("route: Free plan restriction", () => {
  const cheapestFree = FREE_MODEL_IDS.map((id) => findModel(id)!).toSorted((a, b) => blendedUsdPerMtok(a) - blendedUsdPerMtok(b))[0]!;

  it("routes a request for any other model to the cheapest allowed one, and says so", () => {
    for (const model of ["claude-opus-4-6", "gpt-5.2", "gpt-5-mini"]) {
      const d = route(input(PROMPTS.code, { model, allowedModels: FREE_MODEL_IDS }));
      expect(d.candidates[0]).toBe(cheapestFree);
      expect(d.rule).toBe("plan_restriction");
      expect(d.reason).toContain(`${model} (the request's model) is not available on your plan`);
      expect(d.reason).toContain("cheapest allowed model");
      expect(ids(d).every((id) => FREE_MODEL_IDS.includes(id))).toBe(true);
    }
  });

  it("serves a pinned allowed model as is", () => {
    const d = route(input(PROMPTS.simple, { model: FREE_MODEL_IDS[1]!, allowedModels: FREE_MODEL_IDS }));
    expect(d.mode).toBe("direct");
    expect(d.candidates[0]!.id).toBe(FREE_MODEL_IDS[1]);
  });

  it("auto routing stays within the plan in every mode", () => {
    for (const prompt of Object.values(PROMPTS)) {
      for (const mode of ["quality", "balanced", "agility"] as const) {
        const d = route(input(prompt, { routingMode: mode, allowedModels: FREE_MODEL_IDS }));
        expect(ids(d).every((id) => FREE_MODEL_IDS.includes(id))).toBe(true);
        expect(d.tier).toBe("budget");
      }
    }
    const q = route(input(PROMPTS.code, { routingMode: "quality", allowedModels: FREE_MODEL_IDS }));
    expect(q.candidates[0]!.id).toBe("gpt-5-nano"); // the only Free model with the code capability
    expect(q.reason).toContain("your plan allows");
    expect(q.reason).toContain("nearest tier");
  });
});

describe("route: candidates", () => {
  it("are never empty, start with the chosen model, hold no duplicates, and try other providers first", () => {
    for (const prompt of Object.values(PROMPTS)) {
      for (const mode of ["quality", "balanced", "agility"] as const) {
        const d = route(input(prompt, { routingMode: mode }));
        expect(d.candidates.length).toBe(4);
        expect(new Set(ids(d)).size).toBe(d.candidates.length);
        expect(new Set(d.candidates.map((m) => m.provider)).size).toBe(d.candidates.length);
        expect(d.tier).toBe(d.candidates[0]!.tier);
      }
    }
  });

  it("a pinned model keeps fallbacks of its own tier first", () => {
    const d = route(input(PROMPTS.code, { model: "claude-opus-4-6" }));
    expect(d.candidates[0]!.id).toBe("claude-opus-4-6");
    expect(d.candidates[1]!.id).toBe("gpt-5.2-pro");
    expect(d.candidates.slice(1).every((m) => m.provider !== "anthropic")).toBe(true);
  });
});

describe("route: context fit", () => {
  const longConversation = (tokens: number): ChatMessage[] => [
    { role: "user", content: "Here is the log. ".repeat(Math.ceil((tokens * 4) / 17)) },
    { role: "user", content: "What went wrong?" },
  ];

  it("only chooses models whose context holds the prompt and the completion budget", () => {
    const messages = longConversation(150_000);
    for (const mode of ["quality", "balanced", "agility"] as const) {
      const d = route({ messages, model: "auto", routingMode: mode, allowedModels: null, maxTokens: 4000 });
      expect(d.signals_detected.long_context).toBe(true);
      expect(d.estimated_prompt_tokens).toBeGreaterThanOrEqual(150_000);
      for (const m of d.candidates) expect(m.context_tokens).toBeGreaterThanOrEqual(d.estimated_prompt_tokens + 4000);
      expect(d.candidates[0]!.capabilities).toContain("long_context");
    }
  });

  it("a huge completion budget leaves only the largest context", () => {
    const d = route(input(PROMPTS.simple, { maxTokens: 1_500_000 }));
    expect(ids(d)).toEqual(["grok-4-1-fast"]);
  });

  it("a pinned model that cannot hold the request is replaced, and the reason says why", () => {
    const d = route({ messages: longConversation(150_000), model: "llama-3.2-3b", allowedModels: null, maxTokens: 1000 });
    expect(d.candidates[0]!.id).not.toBe("llama-3.2-3b");
    expect(d.mode).toBe("balanced");
    expect(d.reason).toContain("llama-3.2-3b (the request's model) cannot hold");
  });

  it("when nothing fits, the last resort keeps the plan and candidates stay non-empty", () => {
    const d = route(input(PROMPTS.simple, { maxTokens: 1_500_000, allowedModels: FREE_MODEL_IDS }));
    expect(d.rule).toBe("last_resort");
    expect(d.candidates).toHaveLength(1);
    // Nothing on the plan fits: the largest context is the nearest to fitting.
    expect(d.candidates[0]!.id).toBe("gemini-2.5-flash-lite");
    expect(d.reason).toContain("giving up the context fit");
    expect(d.reason).toContain("No model meets every constraint");
  });
});
