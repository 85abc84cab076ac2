import { describe, expect, it } from "vitest";
import { parseBrainConfig, parseBrainConfigText } from "../../src/brain/check";
import { parseBrainText } from "../../src/brain/text";

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
  it("parses YAML: nesting, lists of mappings, flow collections, quotes, comments, scalars", () => {
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
    expect(parseBrainConfigText("# nothing yet\n")).toEqual({ config: {}, valid: true, errors: [], warnings: [] });
  });

  it("reports malformed lines with their line numbers and keeps the rest", () => {
    const text = "max_cost: 0.1\nblocked: [openai]\nmax_cost: 0.2\nrules:\n  - when: {signal: code}\n      model: gpt-5-mini\n";
    const r = parseBrainConfigText(text);
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual(['line 3: duplicate key "max_cost"', "line 6: All mapping items must start at the same column"]);
    expect(r.config.blocked).toEqual(["openai"]);
    const cases: Array<[string, RegExp]> = [
      ["max_cost: 0.1\nthis line has no colon\n", /^line 2: /],
      ["model: gpt-5-mini\n\tblocked: [openai]\n", /^line 2: Tabs are not allowed as indentation/],
      ["blocked: [openai\n", /^line 2: Flow sequence .* end with a \]/],
      ['model: "gpt-5-mini\n', /^line 2: Missing closing "quote/],
      ["# BRAIN.md\n\n```yaml\nmodel: gpt-5-mini\nmodel: gpt-5-nano\n```\n", /^line 5: duplicate key "model"/],
      ["model: gpt-5-mini\n---\nmodel: gpt-5-nano\n", /^line 2: one document only/],
    ];
    for (const [bad, message] of cases) expect(parseBrainConfigText(bad).errors[0], JSON.stringify(bad)).toMatch(message);
  });

  it("refuses anchors, aliases and tags, with their lines: a small text cannot expand into a huge value", () => {
    const bomb = "blocked: &a [openai, xai]\nfallback: *a\n";
    const r = parseBrainConfigText(bomb);
    expect(r.valid).toBe(false);
    expect(r.config).toEqual({});
    expect(r.errors).toEqual(["line 1: anchors (&name) are not part of the format", "line 2: aliases (*name) are not part of the format; write the value out"]);
    expect(parseBrainConfigText("max_cost: !!str 0.1\n").errors[0]).toMatch(/^line 1: tags \(tag:yaml.org,2002:str\) are not part of the format/);
  });

  it("reads YAML 1.2 core scalars: yes, no and on stay strings, so a blocked list of words is not turned into booleans", () => {
    expect(parseBrainText("compliance: {a: yes, b: no, c: on, d: 0x10, e: .5, f: null}\n").value).toEqual({ compliance: { a: "yes", b: "no", c: "on", d: 16, e: 0.5, f: null } });
  });

  it("a text that is not a mapping is an invalid config, not a crash", () => {
    for (const text of ["just prose, no keys\n", "- a\n- b\n", "42\n"]) {
      const r = parseBrainConfigText(text);
      expect(r.valid).toBe(false);
      expect(r.errors[0]).toContain("a brain config is an object");
    }
  });

  it("reports config errors after text errors, with the config's paths, and unknown names as warnings", () => {
    const r = parseBrainConfigText("max_cost: -1\nblocked: [acme]\nblocked: [xai]\nrules:\n  - when: {signal: code}\n");
    expect(r.valid).toBe(false);
    expect(r.errors[0]).toBe('line 3: duplicate key "blocked"');
    expect(r.errors.slice(1).map((e) => e.split(":")[0])).toEqual(["max_cost", "rules.0"]);
    expect(r.errors[2]).toContain("exactly one of model or mode");
    expect(parseBrainConfigText("blocked: [acme]\n").warnings[0]).toMatch(/^blocked\.0: "acme" is neither a catalog model nor a provider/);
  });
});
