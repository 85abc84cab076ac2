import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { badgeSpec, badgeText, renderBadge } from "../../src/brain/badge";
import { MAX_MESSAGE_CHARS, MAX_MESSAGES, parseBrainConfig, parseBrainConfigText } from "../../src/brain/check";
import { allElements, parseXml } from "./xml";

const wellFormedVerdict = (r: ReturnType<typeof parseBrainConfig>) => {
  expect(r.valid).toBe(r.errors.length === 0);
  for (const list of [r.errors, r.warnings]) {
    expect(list.length).toBeLessThanOrEqual(MAX_MESSAGES);
    for (const m of list) expect(m.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
  }
};

describe("brain config reading never throws, whatever the input (properties)", () => {
  it("any text: a verdict, bounded messages, and a canonical config that reads back to itself", () => {
    const yamlish = fc.array(fc.constantFrom("model: ", "max_cost: ", "blocked:", "  - ", "- ", "[", "]", "{", "}", ": ", "\n", "  ", "\t", "#", "&a ", "*a", "!!str ", "'", '"', "gpt-5-mini", "xai", "0.1", "-1", "---", "rules:\n  - when: {signal: code}\n    mode: quality"), { maxLength: 40 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary", maxLength: 300 }), yamlish), (text) => {
        const r = parseBrainConfigText(text);
        wellFormedVerdict(r);
        expect(parseBrainConfig(r.config).config).toEqual(r.config);
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it("any JSON value: a verdict, bounded messages, and idempotent normalising", () => {
    const configish = fc.record(
      {
        model: fc.oneof(fc.constantFrom("auto", "gpt-5-mini", "z-ai/glm-4.7", "gpt-9"), fc.jsonValue()),
        max_cost: fc.oneof(fc.double(), fc.jsonValue()),
        max_cost_per_request: fc.double(),
        blocked: fc.array(fc.oneof(fc.constantFrom("openai", "xai", "gpt-5-nano", "acme"), fc.jsonValue()), { maxLength: 5 }),
        fallback: fc.array(fc.constantFrom("gpt-5-mini", "claude-haiku-4-5", "nope"), { maxLength: 5 }),
        rules: fc.array(fc.record({ when: fc.jsonValue(), model: fc.constantFrom("gpt-5-mini", "x"), mode: fc.constantFrom("quality", "turbo") }, { requiredKeys: [] }), { maxLength: 5 }),
        compliance: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), configish), (input) => {
        const r = parseBrainConfig(input);
        wellFormedVerdict(r);
        expect(parseBrainConfig(r.config).config).toEqual(r.config);
        expect(parseBrainConfig(r.config).errors).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});

describe("badges are well-formed XML whatever the texts (properties)", () => {
  it("any label and model: one svg root, exactly the two text layers per half, the label as text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 120 }), fc.string({ maxLength: 40 }), (label, model) => {
        const svg = renderBadge(badgeSpec(model, label));
        const root = parseXml(svg);
        expect(root.name).toBe("svg");
        const texts = allElements(root).filter((e) => e.name === "text");
        expect(texts).toHaveLength(4);
        expect(texts[1]!.text).toBe(badgeText(label) || "BRAIN.md");
        expect(allElements(root).every((e) => e.children.every((c) => ["title", "linearGradient", "stop", "clipPath", "rect", "g", "text"].includes(c.name)))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
