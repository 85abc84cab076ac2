import type { Capability, Model } from "../catalog/models";
import type { Eligibility } from "../cost/guard";

/**
 * The routing predicate for a skill's declared capabilities (front matter `capabilities`): a code
 * review goes to a model that has `code`, whatever the task's own signals say. `pool` is what the
 * plan and the intensity leave; when none of it has the capabilities (a Free key and a skill that
 * needs `reasoning`), the predicate is dropped rather than forcing routing's last resort.
 */
export function capabilityRule(skillId: string, capabilities: readonly Capability[], pool: readonly Model[]): Eligibility | null {
  if (!capabilities.length) return null;
  const missing = (m: Model) => capabilities.filter((c) => !m.capabilities.includes(c));
  if (!pool.some((m) => missing(m).length === 0)) return null;
  return (m) => {
    const lacks = missing(m);
    return lacks.length ? `lacks ${lacks.join(" and ")} support, which skill ${skillId} needs` : null;
  };
}
