import { describe, expect, it } from "vitest";
import { MAX_MESSAGE_CHARS, MAX_MESSAGES, parseBrainConfig, parseBrainConfigText } from "../../src/brain/check";

describe("brain config warnings (legal, probably not meant)", () => {
  it("unknown model ids in model, fallback and rules warn with the path as written, and stay in the config", () => {
    const r = parseBrainConfig({
      model: "gpt-9",
      fallback: ["gpt-5-mini", "claude-99"],
      rules: [{ when: { signal: "code" }, model: "o7" }],
    });
    expect(r.valid).toBe(true);
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([
      'model: unknown model "gpt-9" (GET /v1/models lists the catalog); routing ignores the pin and routes by mode',
      'fallback.1: unknown model "claude-99" (GET /v1/models lists the catalog); it is skipped',
      'rules.0.model: unknown model "o7" (GET /v1/models lists the catalog); the rule routes by mode instead',
    ]);
    expect(r.config).toEqual({ model: "gpt-9", fallback: ["gpt-5-mini", "claude-99"], rules: [{ when: { signal: ["code"] }, model: "o7" }] });
  });

  it("a blocked entry that is neither a model nor a provider warns that it blocks nothing", () => {
    const r = parseBrainConfig({ blocked: ["openai", "acme-ai", "z-ai/glm-4.7"] });
    expect(r.valid).toBe(true);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^blocked\.1: "acme-ai" is neither a catalog model nor a provider \(openrouter, openai, .*\); it blocks nothing$/);
    expect(r.config.blocked).toEqual(["openai", "acme-ai", "glm-4.7"]);
  });

  it("both cap spellings, a blocked pin, a blocked fallback and rules after a catch-all each warn", () => {
    const r = parseBrainConfig({
      model: "claude-haiku-4-5",
      max_cost: 0.5,
      max_cost_per_request: 0.2,
      blocked: ["anthropic", "gpt-5-mini"],
      fallback: ["gpt-5-mini", "gemini-2.5-flash"],
      rules: [{ when: { signal: "code" }, mode: "quality" }, { mode: "agility" }, { when: {}, mode: "quality" }, { model: "gpt-5-nano" }],
    });
    expect(r.valid).toBe(true);
    expect(r.warnings).toEqual([
      "max_cost: both max_cost and max_cost_per_request are set; the lower, 0.2 USD, holds",
      'model: "claude-haiku-4-5" is also blocked, so the pin never applies',
      'fallback: "gpt-5-mini" is also blocked, so it is never tried',
      "rules.2: never matches: rules.1 has no condition and matches every request first",
    ]);
  });

  it("a clean config has no warnings; model auto is no pin and no warning", () => {
    expect(parseBrainConfig({ model: "auto", max_cost: 0.1, blocked: ["xai"], rules: [{ mode: "agility" }] }).warnings).toEqual([]);
    expect(parseBrainConfig("not an object").warnings).toEqual([]);
  });

  it("the text form forwards yaml's own warnings with their line", () => {
    expect(parseBrainConfigText("max_cost: 0.1\ncompliance:\n  a: !custom x\n").errors[0]).toMatch(/^line 3: tags \(!custom\)/);
  });
});

describe("brain config messages are bounded (shares store them)", () => {
  it(`at most ${MAX_MESSAGES} messages, the last one counting the rest; each at most ${MAX_MESSAGE_CHARS} characters`, () => {
    const r = parseBrainConfig({ blocked: Array.from({ length: 90 }, (_, i) => i), [`k${"x".repeat(5000)}`]: 1 });
    expect(r.errors).toHaveLength(MAX_MESSAGES);
    expect(r.errors.at(-1)).toBe("... and 42 more");
    expect(r.errors.every((e) => e.length <= MAX_MESSAGE_CHARS)).toBe(true);
    const many = parseBrainConfig({ fallback: Array.from({ length: 80 }, (_, i) => `m${i}`) });
    expect(many.warnings).toHaveLength(MAX_MESSAGES);
  });
});
