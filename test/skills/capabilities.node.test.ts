import { describe, expect, it } from "vitest";
import { FREE_MODEL_IDS, MODELS } from "../../src/catalog/models";
import { capabilityRule } from "../../src/skills/capabilities";

/** A skill's declared capabilities as a routing predicate (docs/skills.md, "Capabilities"). */

const byId = (id: string) => MODELS.find((m) => m.id === id)!;
const FREE = MODELS.filter((m) => FREE_MODEL_IDS.includes(m.id));

describe("capabilityRule", () => {
  it("admits exactly the models that have every declared capability, and names what a refused one lacks", () => {
    const rule = capabilityRule("code-review", ["code"], MODELS)!;
    expect(MODELS.filter((m) => rule(m) === null).map((m) => m.id)).toEqual(MODELS.filter((m) => m.capabilities.includes("code")).map((m) => m.id));
    expect(rule(byId("sonar"))).toBe("lacks code support, which skill code-review needs");
    expect(rule(byId("gpt-5-mini"))).toBeNull();
    const both = capabilityRule("x", ["code", "long_context"], MODELS)!;
    expect(both(byId("sonar"))).toBe("lacks code and long_context support, which skill x needs");
    expect(both(byId("gemini-2.5-flash"))).toBeNull();
  });

  it("is no rule for a skill that declares nothing", () => {
    expect(capabilityRule("docs-editor", [], MODELS)).toBeNull();
  });

  it("gives way when nothing the plan and intensity leave has the capabilities (Free and reasoning)", () => {
    expect(FREE.some((m) => m.capabilities.includes("reasoning"))).toBe(false);
    expect(capabilityRule("threat-model", ["reasoning"], FREE)).toBeNull();
    // gpt-5-nano is the Free plan's one code model, so code still applies there.
    const code = capabilityRule("code-review", ["code"], FREE)!;
    expect(FREE.filter((m) => code(m) === null).map((m) => m.id)).toEqual(["gpt-5-nano"]);
  });
});
