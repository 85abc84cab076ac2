import { describe, expect, it } from "vitest";
import { parseBrainConfig } from "../../src/routing/brain-config";
import { parseBrainConfigText, parseBrainText } from "../../src/routing/brain-text";

const FULL = `# Routing for the support bot
model: auto
max_cost: 0.02      # USD per request, worst case
blocked:
  - xai
  - "meta-llama/llama-3.2-3b-instruct"
fallback: [gpt-5-mini, 'claude-haiku-4-5']
rules:
  - when:
      signal: code
      contains: [sql, "stack trace"]
    model: claude-sonnet-4-6
  - when: {signal: [math, reasoning], min_chars: 10}
    mode: quality
  - when:
      max_chars: 40
    mode: agility
compliance:
  jurisdiction: eu
  frameworks:
  - gdpr
  strict: true
`;

describe("brain config text form", () => {
  it("parses the YAML subset: nesting, lists of mappings, flow collections, quotes, comments, scalars", () => {
    const { value, errors } = parseBrainText(FULL);
    expect(errors).toEqual([]);
    expect(value).toEqual({
      model: "auto",
      max_cost: 0.02,
      blocked: ["xai", "meta-llama/llama-3.2-3b-instruct"],
      fallback: ["gpt-5-mini", "claude-haiku-4-5"],
      rules: [
        { when: { signal: "code", contains: ["sql", "stack trace"] }, model: "claude-sonnet-4-6" },
        { when: { signal: ["math", "reasoning"], min_chars: 10 }, mode: "quality" },
        { when: { max_chars: 40 }, mode: "agility" },
      ],
      compliance: { jurisdiction: "eu", frameworks: ["gdpr"], strict: true },
    });
  });

  it("gives the same canonical config as the object form", () => {
    const fromText = parseBrainConfigText(FULL);
    expect(fromText.valid).toBe(true);
    expect(fromText.config).toEqual(parseBrainConfig(parseBrainText(FULL).value).config);
    expect(fromText.config.max_cost_per_request).toBe(0.02);
    expect(fromText.config.blocked).toEqual(["xai", "llama-3.2-3b"]);
  });

  it("reads the config out of a BRAIN.md: the yaml fence, else front matter", () => {
    const md = "# BRAIN.md\n\nOur routing.\n\n```js\nconst x = 1;\n```\n\n```yaml\nmax_cost: 0.5\nblocked: [openai]\n```\n";
    expect(parseBrainConfigText(md).config).toEqual({ max_cost_per_request: 0.5, blocked: ["openai"] });
    const front = "---\nmodel: gpt-5-mini\n---\n# Notes\nmodel: not this one\n";
    expect(parseBrainConfigText(front).config).toEqual({ model: "gpt-5-mini" });
  });

  it("keeps '#' inside quotes and words, and reads quoted escapes", () => {
    const { value } = parseBrainText(`compliance:\n  note: "a # b"\n  tag: c#sharp\n  quote: 'it''s'\n  esc: "line\\nnext"`);
    expect(value).toEqual({ compliance: { note: "a # b", tag: "c#sharp", quote: "it's", esc: "line\nnext" } });
  });

  it("an empty text is an empty config", () => {
    expect(parseBrainConfigText("# nothing yet\n")).toEqual({ config: {}, valid: true, errors: [] });
  });

  it("reports malformed lines with their line numbers and keeps the rest", () => {
    const text = "max_cost: 0.1\nthis line has no colon\nblocked: [openai\n\tfallback: []\nmax_cost: 0.2\nrules:\n  - when: {signal: code}\n      model: gpt-5-mini\n";
    const r = parseBrainConfigText(text);
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual(
      expect.arrayContaining([
        "line 4: indent with spaces, not tabs",
        'line 2: expected "key: value", got "this line has no colon"',
        expect.stringMatching(/^line 3: a flow list needs/),
        'line 5: duplicate key "max_cost"',
        "line 8: unexpected indentation",
      ]),
    );
  });

  it("reports config errors after text errors, with the config's paths", () => {
    const r = parseBrainConfigText("blocked: [acme]\nrules:\n  - when: {signal: code}\n");
    expect(r.valid).toBe(false);
    expect(r.errors.some((e) => e.startsWith("blocked.0:"))).toBe(true);
    expect(r.errors.some((e) => e.startsWith("rules.0:") && e.includes("exactly one of model or mode"))).toBe(true);
  });
});
