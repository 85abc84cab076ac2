/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { classify } from "../../src/compliance/classify";
import { MIN_BODY_CHARS, parseSkillFile, SkillFileError } from "../../src/skills/frontmatter";
import libraryIndex from "../../src/skills/library/index.ts?raw";

/**
 * SPEC.md 1.9 and 2.14: the library on disk, read through Vite's glob (no runtime needed). Every
 * file parses, carries id, name and description, and has a body that states a method, a checklist
 * and an output format (docs/skills.md, "Adding a skill").
 */

const texts = import.meta.glob<string>("../../src/skills/library/*.md", { query: "?raw", import: "default", eager: true });
const entries = Object.entries(texts)
  .map(([path, text]) => [path.slice(path.lastIndexOf("/") + 1), text] as const)
  .sort(([a], [b]) => a.localeCompare(b));
const files = entries.map(([file]) => file);
const parsed = entries.map(([file, text]) => parseSkillFile(file, text));

describe("skill library (SPEC.md 1.9, 2.14)", () => {
  it("holds 23 skills with unique ids and names", () => {
    expect(files).toHaveLength(23);
    expect(new Set(parsed.map((s) => s.id)).size).toBe(23);
    expect(new Set(parsed.map((s) => s.name)).size).toBe(23);
  });

  for (const [i, file] of files.entries()) it(`${file}: front matter and a body with method, checklist and output format`, () => {
    const s = parsed[i]!;
    expect(s.id).toBe(file.replace(/\.md$/, ""));
    expect(s.name.length).toBeGreaterThan(0);
    expect(s.description.length).toBeGreaterThanOrEqual(20);
    expect(s.raw.length).toBeGreaterThanOrEqual(MIN_BODY_CHARS);
    expect(s.raw).not.toMatch(/^---/);
    const headings = [...s.raw.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(expect.arrayContaining(["Method", "Checklist", "Output format"]));
    // The output format is given verbatim in a fenced block.
    const outputSection = s.raw.slice(s.raw.indexOf("## Output format"));
    expect(outputSection).toMatch(/```/);
    expect(s.raw).not.toMatch(/lorem ipsum|\bTBD\b/i);
    // Fences balance, so the prompt renders as written (a template holding code blocks uses a ```` fence).
    for (const fence of [/^```(?!`)/gm, /^````/gm]) expect((s.raw.match(fence) ?? []).length % 2).toBe(0);
  });

  it("declares the capabilities the work needs: code for the code skills, reasoning for threat models and ADRs", () => {
    const caps = Object.fromEntries(parsed.map((s) => [s.id, s.capabilities]));
    for (const id of ["code-review", "security-audit", "sql-tuning", "migration-review", "test-writing", "debugging", "regex-explainer", "commit-message"]) expect(caps[id], id).toEqual(["code"]);
    for (const id of ["threat-model", "adr-writer"]) expect(caps[id], id).toEqual(["reasoning"]);
    for (const id of ["docs-editor", "release-notes", "incident-postmortem", "runbook-writer", "prompt-review"]) expect(caps[id], id).toEqual([]);
  });

  it("no skill text carries a data class the compliance classifier detects, so the skill never sways a compliance decision", () => {
    for (const s of parsed) expect(classify(s.raw).detected_classes, s.id).toEqual([]);
  });

  it("bundles every file: src/skills/library/index.ts imports each one, and nothing else", () => {
    const imported = [...libraryIndex.matchAll(/from "\.\/([^"]+\.md)"/g)].map((m) => m[1]).sort();
    const keyed = [...libraryIndex.matchAll(/^\s+"([^"]+\.md)": /gm)].map((m) => m[1]).sort();
    expect(imported).toEqual(files);
    expect(keyed).toEqual(files);
  });
});

describe("parseSkillFile", () => {
  const body = "x".repeat(MIN_BODY_CHARS);
  const file = (front: string, text = body) => `---\n${front}\n---\n${text}`;
  const good = "id: demo\nname: Demo\ndescription: A demonstration skill for the parser tests.";

  it("reads the front matter with yaml and keeps the trimmed body as raw", () => {
    const s = parseSkillFile("demo.md", file(good, `\n# Title\n${body}\n\n`));
    expect(s).toEqual({ id: "demo", name: "Demo", description: "A demonstration skill for the parser tests.", capabilities: [], raw: `# Title\n${body}` });
  });

  it("reads optional capabilities, block or flow style, without duplicates", () => {
    expect(parseSkillFile("demo.md", file(`${good}\ncapabilities: [code, reasoning, code]`)).capabilities).toEqual(["code", "reasoning"]);
    expect(parseSkillFile("demo.md", file(`${good}\ncapabilities:\n  - long_context`)).capabilities).toEqual(["long_context"]);
  });

  it("accepts YAML forms: quoted strings, folded scalars, CRLF line ends", () => {
    const folded = 'id: "demo"\nname: \'Demo\'\ndescription: >\n  A demonstration skill\n  for the parser tests.';
    expect(parseSkillFile("demo.md", file(folded)).description).toBe("A demonstration skill for the parser tests.\n".trim());
    expect(parseSkillFile("demo.md", file(good).replace(/\n/g, "\r\n")).id).toBe("demo");
  });

  const cases: Array<[string, string, RegExp]> = [
    ["no front matter", body, /no front matter/],
    ["unclosed front matter", `---\n${good}\n${body}`, /no front matter/],
    ["invalid YAML", file("id: [demo\nname: Demo"), /not valid YAML/],
    ["a list instead of a map", file("- id\n- name"), /expected object/],
    ["missing description", file("id: demo\nname: Demo"), /description/],
    ["an unknown key", file(`${good}\nauthor: me`), /author/],
    ["an id with capitals", file(good.replace("id: demo", "id: Demo")), /id: must be lowercase/],
    ["an id that is not the file name", file(good.replace("id: demo", "id: other")), /must equal the file name "demo"/],
    ["a short description", file("id: demo\nname: Demo\ndescription: short"), /description/],
    ["a body too short to be a skill", file(good, "Be helpful."), /body has 11 characters/],
    ["a capability no catalog model has", file(`${good}\ncapabilities: [telepathy]`), /capabilities\.0: /],
    ["an empty capability list", file(`${good}\ncapabilities: []`), /capabilities: /],
    ["capabilities as a string", file(`${good}\ncapabilities: code`), /capabilities: /],
  ];
  it.each(cases)("rejects %s, naming the file", (_label, text, message) => {
    expect(() => parseSkillFile("demo.md", text)).toThrow(SkillFileError);
    expect(() => parseSkillFile("demo.md", text)).toThrow(message);
    expect(() => parseSkillFile("demo.md", text)).toThrow(/^demo\.md: /);
  });
});
