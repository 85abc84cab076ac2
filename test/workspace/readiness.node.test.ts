import { describe, expect, it } from "vitest";
import { READINESS_CHECKS } from "../../src/workspace/readiness-checks";
import { ratingFor, scoreReadiness } from "../../src/workspace/readiness";
import { FULL } from "./manifests";

describe("readiness (pure)", () => {
  it("the check table is well formed: unique ids, positive weights summing to 100, advice for each", () => {
    expect(new Set(READINESS_CHECKS.map((c) => c.id)).size).toBe(READINESS_CHECKS.length);
    expect(READINESS_CHECKS.reduce((s, c) => s + c.weight, 0)).toBe(100);
    for (const c of READINESS_CHECKS) {
      expect(c.weight).toBeGreaterThan(0);
      expect(c.rec.length).toBeGreaterThan(20);
    }
  });

  it("a careful manifest passes every check", () => {
    const r = scoreReadiness(FULL);
    expect(r.checks.filter((c) => !c.passed)).toEqual([]);
    expect(r).toMatchObject({ object: "repo.readiness", version: "repo-readiness-v0.1", score: 100, rating: "excellent", earned_weight: 100, total_weight: 100, recommendations: [] });
  });

  it("a bare manifest is critical, and recommendations are the heaviest failing checks, heaviest first", () => {
    const r = scoreReadiness({ workspace_id: "bare" });
    expect([r.score, r.rating, r.earned_weight]).toEqual([0, "critical", 0]);
    expect(r.recommendations.map((x) => x.id)).toEqual(["handoffs_required", "risk_gate_required", "protected_paths_declared", "forbidden_commands_declared", "secrets_protected"]);
    expect(r.recommendations[0]).toEqual({ id: "handoffs_required", label: expect.any(String), weight: 14, rec: expect.stringContaining("require_handoffs") });
  });

  // Expected scores are literal (100 minus the weights in docs/governance.md), not re-derived from the table.
  it.each<[string, Record<string, unknown>, string[], number]>([
    ["force push forbidden only in its long form", { forbidden_commands: ["rm -rf", "git push --force", "drop table"] }, ["forbids_force_push"], 92],
    ["secrets protected only as .env", { protected_paths: [".env", ".github/", "migrations"] }, ["secrets_protected"], 91],
    ["CI not protected", { protected_paths: [".env*", "*.pem", "migrations/**"] }, ["ci_protected"], 94],
    ["no project name or stack", { project_name: undefined, stack: [] }, ["project_named", "stack_declared"], 90],
    ["gates off", { require_handoffs: false, require_risk_gate: undefined }, ["handoffs_required", "risk_gate_required"], 72],
  ])("%s", (_name, patch, failing, score) => {
    const r = scoreReadiness({ ...FULL, ...patch });
    expect(r.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual(failing);
    expect(r.earned_weight).toBe(score);
    expect(r.score).toBe(score);
  });

  it("ratings follow DESIGN.md thresholds", () => {
    expect([100, 90, 89, 75, 74, 50, 49, 25, 24, 0].map(ratingFor)).toEqual(["excellent", "excellent", "good", "good", "fair", "fair", "poor", "poor", "critical", "critical"]);
  });
});
