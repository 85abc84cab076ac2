import { READINESS_CHECKS, type ReadinessCheck } from "./readiness-checks";
import type { WorkspaceManifest } from "../policy/manifest";

const READINESS_VERSION = "repo-readiness-v0.1";
/** How many failing checks become recommendations. */
const MAX_RECOMMENDATIONS = 5;

export type ReadinessRating = "excellent" | "good" | "fair" | "poor" | "critical";

/** DESIGN.md section 4. */
export function ratingFor(score: number): ReadinessRating {
  if (score >= 90) return "excellent";
  if (score >= 75) return "good";
  if (score >= 50) return "fair";
  if (score >= 25) return "poor";
  return "critical";
}

/** SPEC.md 2.7. Pure: the same manifest always gives the same result. */
export function scoreReadiness(manifest: WorkspaceManifest, checks: readonly ReadinessCheck[] = READINESS_CHECKS) {
  const results = checks.map((c) => ({ check: c, passed: c.passes(manifest) }));
  const total = checks.reduce((s, c) => s + c.weight, 0);
  const earned = results.reduce((s, r) => s + (r.passed ? r.check.weight : 0), 0);
  const score = total === 0 ? 0 : Math.round((earned / total) * 100);
  // Highest weight first; the table order breaks ties, so the ranking is stable.
  const failing = results
    .map((r, order) => ({ ...r, order }))
    .filter((r) => !r.passed)
    .sort((a, b) => b.check.weight - a.check.weight || a.order - b.order)
    .slice(0, MAX_RECOMMENDATIONS);
  return {
    object: "repo.readiness" as const,
    version: READINESS_VERSION,
    workspace_id: manifest.workspace_id,
    score,
    rating: ratingFor(score),
    earned_weight: earned,
    total_weight: total,
    checks: results.map((r) => ({ id: r.check.id, label: r.check.label, weight: r.check.weight, passed: r.passed })),
    recommendations: failing.map((r) => ({ id: r.check.id, label: r.check.label, weight: r.check.weight, rec: r.check.rec })),
  };
}
