import { describe, expect, it } from "vitest";
import { call } from "../helpers";

/** SPEC.md 2.14 and 4.9: the bundled library as the Worker serves it (public, no key). */

describe("GET /v1/skills (SPEC.md 2.14, 4.9)", () => {
  it("lists the 23 bundled skills with id, name and description, sorted by id", async () => {
    const r = await call("/v1/skills");
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(["count", "data", "object", "source"]);
    expect(r.json).toMatchObject({ object: "list", count: 23, source: "bundled" });
    expect(r.json.data).toHaveLength(23);
    for (const s of r.json.data) {
      expect(Object.keys(s).sort()).toEqual(["description", "id", "name"]);
      expect(s.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(s.name.length).toBeGreaterThan(0);
      expect(s.description.length).toBeGreaterThanOrEqual(20);
    }
    const ids = r.json.data.map((s: { id: string }) => s.id);
    expect(ids).toEqual([...ids].sort());
    // The skills the issue names are all there.
    expect(ids).toEqual(
      expect.arrayContaining([
        "code-review", "security-audit", "sql-tuning", "test-writing", "api-design", "incident-postmortem", "threat-model",
        "refactoring-plan", "data-pipeline-review", "commit-message", "release-notes", "accessibility-review",
        "performance-profiling", "regex-explainer", "docs-editor",
      ]),
    );
  });
});

describe("GET /v1/skills/{skill_id} (SPEC.md 2.14, 4.9)", () => {
  it("answers every listed skill with its body as raw and its file as source", async () => {
    const list = (await call("/v1/skills")).json.data as Array<{ id: string; name: string; description: string }>;
    for (const summary of list) {
      const r = await call(`/v1/skills/${summary.id}`);
      expect(r.status, summary.id).toBe(200);
      expect(Object.keys(r.json).sort()).toEqual(["capabilities", "description", "id", "name", "raw", "source"]);
      expect(Array.isArray(r.json.capabilities)).toBe(true);
      expect(r.json).toMatchObject({ ...summary, source: `src/skills/library/${summary.id}.md` });
      // The body without its front matter, stating method, checklist and output format.
      expect(r.json.raw).not.toMatch(/^---/);
      expect(r.json.raw).not.toContain(`id: ${summary.id}`);
      expect(r.json.raw.length).toBeGreaterThan(800);
      for (const heading of ["## Method", "## Checklist", "## Output format"]) expect(r.json.raw, summary.id).toContain(heading);
    }
  });

  it("serves the code-review body as written in the repository", async () => {
    const r = await call("/v1/skills/code-review");
    expect(r.json.name).toBe("Code Review");
    expect(r.json.capabilities).toEqual(["code"]);
    expect(r.json.raw.startsWith("# Code review\n\nYou are a senior software engineer doing a pre-merge review.")).toBe(true);
  });

  it("answers 404 skill_not_found for an unknown id, in the flat shape", async () => {
    for (const id of ["no-such-skill", "CODE-REVIEW", "code-review.md", "%20"]) {
      const r = await call(`/v1/skills/${id}`);
      expect(r.status, id).toBe(404);
      expect(r.json.error).toBe("skill_not_found");
      expect(r.json.message).toMatch(/GET \/v1\/skills/);
    }
  });

  it("is public: no key is needed, and a bad key is not even looked at", async () => {
    const r = await call("/v1/skills/sql-tuning", { headers: { authorization: "Bearer nonsense" } });
    expect(r.status).toBe(200);
  });
});
