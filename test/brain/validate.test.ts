import { describe, expect, it } from "vitest";
import { MAX_BRAIN_CONFIG_BYTES, MAX_BRAIN_MD_BYTES } from "../../src/brain/requests";
import { call, newKey } from "../helpers";

const BRAIN_MD = `# BRAIN.md for the support bot

Routing notes for humans.

\`\`\`yaml
max_cost: 0.02
blocked: [xai, "meta-llama/llama-3.2-3b-instruct"]
fallback:
  - claude-haiku-4-5
rules:
  - when: {signal: code, contains: [SQL]}
    model: claude-sonnet-4-6
  - when: {max_chars: 40}
    mode: agility
\`\`\`
`;

const CANONICAL = {
  max_cost_per_request: 0.02,
  blocked: ["xai", "llama-3.2-3b"],
  fallback: ["claude-haiku-4-5"],
  rules: [
    { when: { signal: ["code"], contains: ["sql"] }, model: "claude-sonnet-4-6" },
    { when: { max_chars: 40 }, mode: "agility" },
  ],
};

const validateCall = (json: unknown, key?: string) => call("/v1/brain/validate", { json, key });

describe("POST /v1/brain/validate (SPEC.md 4.12, public)", () => {
  it("needs no key, and reads brain_md (a BRAIN.md with a yaml fence) into the canonical config", async () => {
    const r = await validateCall({ brain_md: BRAIN_MD });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ object: "brain.validation", valid: true, errors: [], warnings: [], config: CANONICAL });
  });

  it("brain_config (the object form) gives the same canonical config; a key is accepted too", async () => {
    const { key } = await newKey("free");
    const r = await validateCall(
      { brain_config: { max_cost: 0.02, blocked: ["xai", "llama-3.2-3b", "xai"], fallback: ["claude-haiku-4-5"], rules: CANONICAL.rules.map((x) => ({ ...x })) } },
      key,
    );
    expect(r.status).toBe(200);
    expect(r.json.config).toEqual(CANONICAL);
    expect(r.json.valid).toBe(true);
  });

  it("an invalid config is a 200 with valid false and errors naming the key and what is wrong", async () => {
    const r = await validateCall({ brain_config: { max_cost: "cheap", colour: "blue", rules: [{ when: { signal: "poetry" }, mode: "quality" }], blocked: ["openai"] } });
    expect(r.status).toBe(200);
    expect(r.json.valid).toBe(false);
    expect(r.json.errors).toHaveLength(3);
    expect(r.json.errors[0]).toMatch(/^max_cost: .*expected number/);
    expect(r.json.errors[1]).toMatch(/^colour: unknown key; the keys are model, max_cost_per_request, max_cost, blocked, fallback, rules, compliance$/);
    expect(r.json.errors[2]).toMatch(/^rules\.0\.when\.signal: /);
    // What was valid is kept, normalised.
    expect(r.json.config).toEqual({ blocked: ["openai"] });
  });

  it("text errors carry line numbers (counted in the whole BRAIN.md) and come before config errors", async () => {
    const r = await validateCall({ brain_md: "# Title\n\n```yaml\nmodel: gpt-5-mini\nmodel: gpt-5-nano\nmax_cost: 0\n```\n" });
    expect(r.json.valid).toBe(false);
    expect(r.json.errors).toEqual(['line 5: duplicate key "model"', "max_cost: Too small: expected number to be >0"]);
  });

  it("warnings: an unknown model id, a blocked name that is no provider; the config stays valid", async () => {
    const r = await validateCall({ brain_md: "model: gpt-9-ultra\nblocked: [acme]\n" });
    expect(r.json.valid).toBe(true);
    expect(r.json.errors).toEqual([]);
    expect(r.json.warnings).toHaveLength(2);
    expect(r.json.warnings[0]).toContain('model: unknown model "gpt-9-ultra"');
    expect(r.json.warnings[1]).toContain('blocked.0: "acme" is neither a catalog model nor a provider');
    expect(r.json.config).toEqual({ model: "gpt-9-ultra", blocked: ["acme"] });
  });

  it("a config that is not an object, or an empty text, answers rather than failing", async () => {
    expect((await validateCall({ brain_config: ["model", "auto"] })).json).toMatchObject({ valid: false, config: {} });
    expect((await validateCall({ brain_config: null })).json).toMatchObject({ valid: false, config: {} });
    expect((await validateCall({ brain_md: "" })).json).toEqual({ object: "brain.validation", valid: true, errors: [], warnings: [], config: {} });
  });

  it("chat and route read inline brain_config with the same normaliser: what validate calls an error is a 400 there", async () => {
    const { key } = await newKey("pro");
    const messages = [{ role: "user", content: "hi" }];
    const bad = await call("/v1/route", { key, json: { messages, brain_config: { max_cost: "cheap" } } });
    expect(bad.status).toBe(400);
    const verdict = await validateCall({ brain_config: { max_cost: "cheap" } });
    expect(bad.json.issues[0].message).toBe(verdict.json.errors[0].replace(/^max_cost: /, ""));
    // A warning is no error: routing ignores a name it does not know.
    const ok = await call("/v1/route", { key, json: { messages, brain_config: { blocked: ["acme"] } } });
    expect(ok.status).toBe(200);
  });

  const BAD: Array<[string, unknown, RegExp]> = [
    ["neither brain_md nor brain_config", {}, /give brain_md \(the BRAIN\.md text\) or brain_config/],
    ["both brain_md and brain_config", { brain_md: "model: auto", brain_config: {} }, /give brain_md or brain_config, not both/],
    ["an unknown field", { brain_md: "model: auto", title: "x" }, /Unrecognized key: "title"/],
    ["a brain_md that is not a string", { brain_md: { model: "auto" } }, /brain_md: Invalid input: expected string/],
    ["a body that is not an object", ["brain_md"], /expected object/],
    [`brain_md over ${MAX_BRAIN_MD_BYTES} bytes`, { brain_md: `# ${"é".repeat(MAX_BRAIN_MD_BYTES / 2)}` }, new RegExp(`brain_md: at most ${MAX_BRAIN_MD_BYTES} bytes of UTF-8 \\(64 KiB\\); got ${MAX_BRAIN_MD_BYTES + 2}`)],
    [`brain_config over ${MAX_BRAIN_CONFIG_BYTES} bytes as JSON`, { brain_config: { compliance: { note: "x".repeat(MAX_BRAIN_CONFIG_BYTES) } } }, new RegExp(`brain_config: at most ${MAX_BRAIN_CONFIG_BYTES} bytes as JSON`)],
  ];

  it.each(BAD)("400 invalid_request on %s", async (_, json, message) => {
    const r = await validateCall(json);
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("invalid_request");
    expect(r.json.message).toMatch(message);
  });

  it("a brain_md at the limit is read", async () => {
    const text = `model: gpt-5-mini\n# ${"x".repeat(MAX_BRAIN_MD_BYTES - 20)}`;
    expect(new TextEncoder().encode(text).length).toBe(MAX_BRAIN_MD_BYTES);
    const r = await validateCall({ brain_md: text });
    expect(r.status).toBe(200);
    expect(r.json.config).toEqual({ model: "gpt-5-mini" });
  });

  it("a body that is not JSON is a 400, and GET is a 405", async () => {
    const notJson = await call("/v1/brain/validate", { method: "POST", body: "model: auto", headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(400);
    const { key } = await newKey("pro");
    const get = await call("/v1/brain/validate", { key });
    expect(get.status).toBe(405);
  });
});
