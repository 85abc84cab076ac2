import { MODELS, type Model } from "../catalog/models";
import type { Eligibility } from "../cost/guard";
import { isObject } from "../shared/data";
import { apiError, invalidRequest } from "../shared/errors";
import { classify } from "./classify";
import { applyGate, complianceEligibility, gateDecision, type GateDecision } from "./gate";
import { MATRIX_VERSION } from "./matrix";
import { compliancePolicySchema } from "./policy";
import { contentText } from "./preview";

/**
 * The gate on a model call: `brain_config.compliance` on chat, `/v1/route` (and whatever else takes a
 * brain config) becomes a routing requirement, never relaxed, and the decision `svc.compliance`
 * carries. Every message is classified, not only the last user turn: all of them go upstream.
 */
export interface CallCompliance {
  /** For RouteInput.requirements: the router may not give it up, not even as a last resort. */
  requirement: Eligibility;
  decision: GateDecision;
}

/**
 * Null when the request has no `brain_config.compliance`. Throws 400 `invalid_request` for a policy
 * the matrix does not understand, and 422 `no_compliant_model` when no model of the caller's plan
 * passes it (naming every model's reasons), so a call is never served by a model the policy excludes.
 */
export function callCompliance(
  brainConfig: unknown,
  messages: ReadonlyArray<{ content: unknown }>,
  planModels: readonly string[] | null,
): CallCompliance | null {
  const raw = isObject(brainConfig) ? brainConfig.compliance : undefined;
  if (raw === undefined || raw === null) return null;
  const parsed = compliancePolicySchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: ["brain_config", "compliance", ...i.path.map(String)].join("."), message: i.message }));
    throw invalidRequest(`Invalid brain_config.compliance: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues);
  }
  const policy = parsed.data;
  const { detected_classes } = classify(messages.map((m) => contentText(m.content)).join("\n"));
  const gate = applyGate(policy, detected_classes);
  const decision = gateDecision(policy, detected_classes, gate);
  const onPlan = (m: Model) => planModels === null || planModels.includes(m.id);
  if (!gate.allowed.some(onPlan)) {
    const excluded: Record<string, string[]> = {};
    for (const m of MODELS.filter(onPlan)) excluded[m.id] = gate.excluded[m.id] ?? [];
    throw apiError(
      "no_compliant_model",
      `brain_config.compliance excludes every model${planModels ? " your plan allows" : ""}; nothing was sent to any provider. See excluded_models for the reasons.`,
      { detected_classes, excluded_models: excluded, matrix_version: MATRIX_VERSION },
    );
  }
  return { requirement: complianceEligibility(policy, detected_classes), decision };
}
